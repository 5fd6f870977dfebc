/* Counting events around a benchmark body the way time is measured: 0, U
 * and 2U copies in L loop iterations, the difference per body. The PMU
 * (kernel/pmu/) drives the counters; the loop and the plan are the
 * harness's. */
#ifndef CK_COUNT_H
#define CK_COUNT_H
#include <stdint.h>
#include "bench.h"
#include "options/settings.h"
#include "plan.h"
#include "pmu/pmu.h"

/* Runs the body once with `copies` copies (the loop count already set);
 * prepare, when given, readies each run just before it, before the counters
 * are read (what it does is not counted). */
typedef void (*count_run_fn)(void *ctx, uint32_t copies);

/* Events per body, x100, for sel[0..n): in passes of as many events as the
 * driver has general counters; per pass `samples` samples of 0, U and 2U
 * copies, median of (count(2U) - count(U)) / (U*L). err[i] is 0 or why that
 * event has no value (PMU_ERR_*, a fault code). Returns the passes used. */
unsigned count_events(struct pmu_driver *d, const struct pmu_eventsel *sel, unsigned n,
                      count_run_fn prepare, count_run_fn run, void *ctx, uint32_t unroll, uint32_t loops,
                      uint32_t samples, int64_t *per_body_x100, int *err);

/* count_events around b's generated body, as plan pl says (U, L, samples),
 * registers from bctx. */
unsigned count_bench(struct pmu_driver *d, const struct plan *pl, const struct bench *b,
                     const struct bench_ctx *bctx, const struct pmu_eventsel *sel, unsigned n,
                     int64_t *per_body_x100, int *err);

struct measurement;
struct event_counts;
/* The counts of the benchmark just measured (m), into ec, which the caller
 * reuses from one benchmark to the next: counted with count_bench (the L
 * the time loop took) when it was measured warm. A cold benchmark (its
 * first execution is the measurement: the warm-up and 0/U/2U passes of the
 * counting would measure another thing) gets no counts: every value is
 * cleared and its error is PMU_ERR_COLD, so nothing of the benchmark before
 * it stays in ec; one whose measurement failed gets no events (n = 0). */
void count_measured(struct pmu_driver *d, const struct plan *pl, const struct bench *b,
                    const struct bench_ctx *bctx, const struct measurement *m, struct event_counts *ec);

/* The event sweep's counting: b under its own plan (its declared U and L
 * win over the options, as for its time), every event of sel[0..n). */
unsigned count_sweep(struct pmu_driver *d, const struct bench *b, const struct settings *s,
                     const struct bench_ctx *bctx, const struct pmu_eventsel *sel, unsigned n,
                     int64_t *per_body_x100, int *err);

#endif
