/* The measurement harness: how one benchmark is timed.
 *
 * The generated benchmark function (bench_asm.h) and this side share the
 * timing page (timing_page.h). */
#ifndef CK_MEASURE_H
#define CK_MEASURE_H
#include <stdbool.h>
#include <stdint.h>
#include "clock/aperf.h"
#include "bench.h"
#include "stats/stats.h"
#include "stats/stats_checks.h"
#include "timing_page.h"


struct plan; /* plan.h: the benchmark's U, L, samples and warm-ups, resolved once */

#define MEASURE_SAMPLES_MAX 2001
#define MEASURE_ENSEMBLES 3

/* The cycle reference (the dependent ADD chain) is timed with this many
 * copies whatever the body's U, at the start-up check and beside every
 * result: at U = 1 one ADD hides under the loop's DEC/JNZ and reads far
 * too few ticks (issue 20: 0.24 ticks per ADD instead of 0.62); a chain of
 * 8 dependent ADDs per iteration outlasts the loop's own work. */
#define MEASURE_REF_UNROLL 8
#define MEASURE_REF_LOOPS 100

/* t(4U) is taken on every MEASURE_4U_EVERY-th sample only (the linearity
 * check needs its median and spread, not every sample: the default suite's
 * time under an emulator grows by a sixth instead of two thirds). */
#define MEASURE_4U_EVERY 4

/* The cost per copy at three copy counts (ticks x100 per copy), for the
 * linearity check and the record: at U from t(U) - t(0) (the loop's own
 * overlap included: shown, not judged), at 2U from t(2U) - t(U) (the
 * result), at 4U from t(4U) - t(2U). */
struct measure_linearity {
    bool have;                    /* 4U copies fit (U <= CK_MAX_COPIES / 4) and were sampled */
    int64_t u_x100, u2_x100, u4_x100;
    uint32_t samples_4u;          /* samples that took t(4U) */
};

/* A contract the body broke, seen by the harness after it ran (no CPU
 * exception): vector VEC_BODY_ESP, _EBP or _STACK (fault.h), 0 for none;
 * what the value should have been and what it was. */
struct measure_damage {
    uint32_t vector, expected, seen;
};

struct measurement {
    const char *failed;          /* NULL, or why no result could be taken */
    struct measure_damage damage; /* then no result either: a fault-like report */
    uint32_t unroll, loops, samples; /* as measured: the plan's, L grown for a PIT timer */
    bool cold;
    /* Per-sample t(2U) - t(U): the cost of U*L bodies (ticks). */
    struct stats diff;
    uint32_t negative;           /* samples where t(2U) < t(U) (clamped to 0) */
    /* Per iteration of one body, ticks x100. */
    int64_t value_x100;          /* median of the differences / (U*L): the result */
    int64_t min_x100;            /* minimum of the differences / (U*L) */
    int64_t empty_x100;          /* cross-check: median(t(U) - t(0)) / (U*L) */
    bool methods_agree;
    bool stable;                 /* judged stable (judge.verdict), after at most one rerun */
    uint32_t reruns;
    /* How far the result can be trusted (stats_verdict.h): negatives, too
     * few samples, too short a sample, ensembles, modes, linearity, the
     * cycle reference against the start-up rate (judge.c). */
    struct stats_judgement judge;
    struct stats_modes modes;    /* of the differences; after a rerun, of both runs' */
    struct measure_linearity lin;
    uint32_t loops_asked;        /* L before a short sample grew it (measure.c) */
    struct stats_length length;  /* the timed difference's length check (judge.c) */
    bool smi_known;              /* MSR_SMI_COUNT read before and after */
    uint64_t smis;               /* SMIs during the measurement (disturbed when > 0) */
    bool switches_known;         /* platform->context_switches was read around every sample */
    uint32_t switched;           /* samples during which the thread was switched out (disturbed when > 0) */
    const bool *switched_at;     /* which ones (per sample; NULL when not known) */
    /* The reference (the dependent ADD chain, 1 cycle a body) timed in the
     * same sample loop with MEASURE_REF_UNROLL copies: median of its
     * t(2U) - t(U), x100, over ref_iters ADDs. 0 when not taken. */
    uint64_t ref_median_x100;
    uint64_t ref_iters;
    /* AVX bodies: warmed until the throughput settled (clock/warmup.h). */
    bool avx_warmup, warmup_settled;
    uint32_t warmups;            /* runs it took */
    /* The real clock read around each U and 2U run (aperf.h). */
    struct aperf_result aperf;
    /* Raw totals of the last run, for raw= and hist= output. */
    const uint64_t *t_empty, *t_u, *t_2u;
};

/* The checks of one measurement, over its samples (judge.c). t_4u holds
 * n4 values: t(4U) of samples 0, MEASURE_4U_EVERY, ... (n4 0: not taken);
 * prior: the non-negative differences of the run before a rerun (prior_n
 * of them; NULL: none), judged
 * for modes together with this run's. startup_x100: the ADD chain's ticks
 * per ADD at start-up (0: unknown). Fills m->judge, m->modes, m->lin and
 * m->stable; uses scratch (2 * MEASURE_SAMPLES_MAX values). */
struct judge_samples {
    const uint64_t *t_empty, *t_u, *t_2u, *t_4u, *diffs, *prior;
    uint32_t n, n4, prior_n;
    uint64_t resolution;          /* one step of the time base, in its ticks */
    int64_t startup_x100;
};
void judge_measurement(const struct judge_samples *js, uint64_t *scratch, struct measurement *m);

/* Times b (its generated function must exist). No output, no allocation:
 * the caller reports. ctx gives the registers and scratch data. */
void measure_bench(const struct bench *b, const struct plan *pl, const struct bench_ctx *ctx,
                   struct measurement *m);

/* As measure_bench, with `ref` (the ADD chain) sampled alongside, so a cycle
 * estimate divides two numbers taken at the same clock speed. */
void measure_bench_with_reference(const struct bench *b, const struct bench *ref,
                                  const struct plan *pl, const struct bench_ctx *ctx,
                                  struct measurement *m);

/* Cycles x100 per body from the reference measured alongside (false: none). */
bool measure_ref_cycles_x100(const struct measurement *m, int64_t *cycles_x100);

/* A run of b with `copies` copies in `loops` iterations (registers from
 * ctx), for counting events around it, in two steps: measure_place_copies
 * loads the registers and finds (a loaded body: builds) where the copies
 * start, NULL when b cannot run here; measure_run_placed runs them from
 * there (the reads it takes are ignored). Counters read between the two see
 * the run alone: a loaded body's placement looks its block up in a list, one
 * step further for 2U than for U, and inside the window those steps were
 * counted as the body's (+0.01 instructions a copy on the counting QEMU). */
const uint8_t *measure_place_copies(const struct bench *b, const struct bench_ctx *ctx, uint32_t loops,
                                    uint32_t copies);
void measure_run_placed(const struct bench *b, const uint8_t *entry);

/* The 4 KiB page right below the benchmark stack, which the harness never
 * touches (a platform with paging may unmap it: a runaway push then faults). */
uintptr_t measure_stack_guard_page(void);

/* Bytes of one copy of the body (0 for an empty body), or -1 when the
 * copies are not all the same size. */
int32_t bench_copy_size(const struct bench *b);

#endif
