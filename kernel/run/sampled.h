/* Sampling a measured benchmark (sample=, cycles=): sampled.c. */
#ifndef CK_RUN_SAMPLED_H
#define CK_RUN_SAMPLED_H
#include "harness/bench.h"
#include "harness/plan.h"
#include "platform/platform.h"

/* After b's result (boot processor only): its sampled run and its
 * cycle-by-cycle run, as the options ask; their records, or the fault.
 * Returns STATUS_OK or STATUS_BENCH_FAULT. */
int sampled_bench(const struct platform *p, const struct bench *b, const struct plan *pl,
                  const struct bench_ctx *ctx);

#endif
