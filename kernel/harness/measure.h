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
#include "timing_page.h"


struct plan; /* plan.h: the benchmark's U, L, samples and warm-ups, resolved once */

#define MEASURE_SAMPLES_MAX 2001
#define MEASURE_ENSEMBLES 3

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
    bool stable;                 /* ensembles agree (after at most one rerun) */
    uint32_t reruns;
    bool smi_known;              /* MSR_SMI_COUNT read before and after */
    uint64_t smis;               /* SMIs during the measurement (disturbed when > 0) */
    bool switches_known;         /* platform->context_switches was read around every sample */
    uint32_t switched;           /* samples during which the thread was switched out (disturbed when > 0) */
    const bool *switched_at;     /* which ones (per sample; NULL when not known) */
    /* The reference (the dependent ADD chain, 1 cycle a body) timed in the
     * same sample loop: median of its t(2U) - t(U), x100. 0 when not taken. */
    uint64_t ref_median_x100;
    /* AVX bodies: warmed until the throughput settled (clock/warmup.h). */
    bool avx_warmup, warmup_settled;
    uint32_t warmups;            /* runs it took */
    /* The real clock read around each U and 2U run (aperf.h). */
    struct aperf_result aperf;
    /* Raw totals of the last run, for raw= and hist= output. */
    const uint64_t *t_empty, *t_u, *t_2u;
};

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

/* Runs b once with `copies` copies in `loops` iterations (registers from
 * ctx), for counting events around it; the reads it takes are ignored. */
void measure_run_copies(const struct bench *b, const struct bench_ctx *ctx, uint32_t loops,
                        uint32_t copies);

/* The 4 KiB page right below the benchmark stack, which the harness never
 * touches (a platform with paging may unmap it: a runaway push then faults). */
uintptr_t measure_stack_guard_page(void);

/* Bytes of one copy of the body (0 for an empty body), or -1 when the
 * copies are not all the same size. */
int32_t bench_copy_size(const struct bench *b);

#endif
