/* One benchmark's measurement plan: its declaration and the run's settings
 * resolved once (a declared .unroll, .loops or .samples wins over the
 * option), then handed to the time loop (measure.c) and the counter loop
 * (count.c) alike, so the two can never measure different things. */
#ifndef CK_PLAN_H
#define CK_PLAN_H
#include <stdbool.h>
#include <stdint.h>
#include "bench.h"
#include "options/settings.h"
#include "result.h"

/* Event samples per result (counting is exact; a few samples find the median). */
#define PLAN_EVENT_SAMPLES 9

struct plan {
    uint32_t unroll;          /* U: copies of the body per loop iteration */
    uint32_t loops;           /* L: loop iterations per sample */
    bool loops_declared;      /* the benchmark set L */
    /* L may grow until a sample is long enough for its time base
     * (measure.c): neither the benchmark nor loops= chose it (loops=auto). */
    bool loops_grow;
    uint32_t samples;         /* S (quick= applied, at most MEASURE_SAMPLES_MAX) */
    uint32_t warmup;          /* warm-up runs before sampling */
    bool cold;                /* the first execution only */
    uint32_t event_samples;   /* samples of each counted event */
    /* From the start-up trust check (trust.h), so that the time loop reads
     * no global: the reference's L, its ticks per ADD then (0: unknown),
     * and whether an unstable result may run again (not on a timer found
     * untrustworthy: measure.c says why). */
    uint32_t ref_loops;
    int64_t ref_startup_x100;
    bool rerun;
};

/* b's plan under s; b == NULL: the run's defaults (the results heading). */
void plan_build(const struct bench *b, const struct settings *s, struct plan *pl);

/* The events counted for b's result: events=, else the benchmark's own
 * list, and core cycles when the time base does not count them. None
 * when the counters are not in use. */
void plan_events(const struct bench *b, struct event_counts *ec);

#endif
