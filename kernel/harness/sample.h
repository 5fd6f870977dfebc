/* Sampling a benchmark body (issue 32; the interrupts: platform/sampler.h):
 * the sample= option, the buffer the platform's handler fills, the
 * attribution of each sampled instruction pointer to an instruction of the
 * body, and the sampled run itself.
 *
 * Attribution: a sample is charged to the instruction it interrupted, the
 * next one to execute (perf's convention: with no skid, the instruction right
 * after the one whose event overflowed the counter). Its offset in the copy
 * it fell in names the instruction; the copy's number says where in the run.
 * Samples outside the copies are counted apart: the loop's own instructions
 * (the indirect jump into the copies, DEC EBP, JNZ), the handler's (a storm:
 * an interrupt at the handler's own return), and elsewhere. */
#ifndef CK_SAMPLE_H
#define CK_SAMPLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "platform/sampler.h"
#include "pmu/pmu.h"

#define SAMPLE_IPS_MAX 8192       /* instruction pointers kept per sampled run */
#define SAMPLE_OFFSETS_MAX 512    /* a copy's bytes attributed one by one (larger: the tail is "elsewhere") */
#define SAMPLE_DEFAULT_PERIOD 997 /* events; a prime, coprime to any body shorter than it */
#define SAMPLE_DEFAULT_US 100
#define SAMPLE_TARGET 2000        /* samples a run aims for */
#define CYCLES_MAX 256            /* cycles= K at most */

/* ---- sample= (sample_spec.c) ---- */

/* sample=EVENT[:PERIOD][:nmi] or sample=time[:PERIOD_US]: EVENT as events=
 * takes it (a table name or raw code, which may itself hold ':'), PERIOD a
 * decimal number of events (default SAMPLE_DEFAULT_PERIOD) or microseconds
 * (SAMPLE_DEFAULT_US). d may be NULL (no counters: only time parses). Fills
 * *spec and *sel (spec->sel points to it); returns NULL or what was wrong,
 * naming the text (written to err, size bytes). */
const char *sample_spec_parse(const char *text, const struct pmu_driver *d, struct sample_spec *spec,
                              struct pmu_eventsel *sel, char *err, size_t size);

/* ---- the buffer (sample_buffer.c): the handler's side ---- */

struct sample_buffer {
    uint64_t ip[SAMPLE_IPS_MAX];
    uint32_t n;       /* kept */
    uint32_t lost;    /* came after the buffer was full */
};
extern struct sample_buffer sample_buf;
/* Records one interrupted instruction pointer (interrupt-safe: no locks, no output). */
void sample_hit(uint64_t ip);
void sample_reset(void);

/* ---- attribution (sample_attr.c): pure ---- */

/* Where a run's code lies: copies [entry, entry + copies * copy_size), the
 * loop's instructions in [loop_lo, loop_hi) (the jump before the copies'
 * block and the DEC/JNZ after it), the handler's in [handler_lo, handler_hi)
 * (0, 0: unknown). */
struct sample_layout {
    uint64_t entry;
    uint32_t copies, copy_size;
    uint64_t loop_lo, loop_hi, loop2_lo, loop2_hi;
    uint64_t handler_lo, handler_hi;
};

struct sample_profile {
    uint32_t total, body, loop, handler, elsewhere;
    uint32_t at[SAMPLE_OFFSETS_MAX];      /* samples per byte offset in a copy */
    uint32_t per_copy_max;                /* copies counted in by_copy */
    uint32_t by_copy[64];                 /* samples per copy number (CK_MAX_COPIES) */
};

enum sample_where { SAMPLE_IN_BODY, SAMPLE_IN_LOOP, SAMPLE_IN_HANDLER, SAMPLE_ELSEWHERE };
/* Where ip fell; in the body, its offset in its copy and the copy's number. */
enum sample_where sample_locate(const struct sample_layout *l, uint64_t ip, uint32_t *offset, uint32_t *copy);
/* Every ip of ips[0..n) into p (cleared first). */
void sample_attribute(const struct sample_layout *l, const uint64_t *ips, uint32_t n, struct sample_profile *p);
/* The binomial standard error of a share: stats_binomial_error_x100 (stats.h). */

/* ---- the sampled run (sample_run.c) ---- */

struct bench;
struct plan;
struct bench_ctx;
struct platform;

struct sample_result {
    const char *failed;          /* NULL, or why there are no samples (a sentence) */
    char label[PMU_LABEL_MAX];   /* the event as events= spells it, or "time" */
    enum sample_source source;
    uint64_t period;
    const char *unit;            /* "events", "us", or the platform's ("ns") */
    bool nmi;
    struct sample_end end;
    uint32_t runs;               /* runs of the body's loop it took (the probe run included) */
    uint32_t loops;              /* L of the sampled runs */
    struct sample_layout layout;
    struct sample_profile profile;
    bool skid_known;
    int32_t skid;
    const char *skid_why;
    const uint8_t *copy;         /* one copy's bytes (copy_size of them) */
};

/* Samples b (placed as for counting: U copies, L loops from pl) with spec;
 * every field of *r is set. The caller runs it under the guard: a fault in
 * the body leaves the platform's sampler armed until p->sampler->stop,
 * which sample_disarm() calls. */
void sample_bench(const struct platform *p, const struct bench *b, const struct plan *pl,
                  const struct bench_ctx *ctx, const struct sample_spec *spec, struct sample_result *r);
void sample_disarm(const struct platform *p);

struct cycles_result {
    const char *failed;
    uint32_t n;
    struct cycle_step steps[CYCLES_MAX];
    struct sample_layout layout;
    uint64_t base;               /* instructions retired before the first copy began */
};
/* Cycle-by-cycle: one pass of U copies (one loop iteration) per k = 1 .. n. */
void cycles_bench(const struct platform *p, struct pmu_driver *drv, const struct bench *b,
                  const struct plan *pl, const struct bench_ctx *ctx, uint32_t n, struct cycles_result *r);

#endif
