/* Performance counters in the harness: choose the driver, prove it counts,
 * then count events around benchmark bodies the way time is measured (0, U
 * and 2U copies; the difference per body), and restore every PMU MSR at the
 * end. Without a counting driver, results carry time only. */
#ifndef CK_COUNTERS_H
#define CK_COUNTERS_H
#include <stdbool.h>
#include <stdint.h>
#include "pmu.h"
#include "pmu_prove.h"

#define COUNTERS_EVENTS_MAX 16

struct counters {
    bool active;                  /* the driver proved it counts */
    const char *why;              /* why this driver (or none) */
    struct pmu_driver drv;
    struct pmu_verdict verdict;
    bool cycles;                  /* a core-cycle event is available (exact cycle unit) */
    struct pmu_eventsel cycles_sel;
    struct pmu_eventsel chosen[COUNTERS_EVENTS_MAX]; /* from events= */
    unsigned nchosen;
};

extern struct counters counters;

/* Runs the body once with `copies` copies (the loop count already set). */
typedef void (*counters_run_fn)(void *ctx, uint32_t copies);

/* Select, bind and prove the driver (workload: a loop of known length). */
void counters_prove(const struct cpu_info *c, const struct msr_ops *msr);
/* After the proof was reported: take the counters for the run (the cycle
 * event, events=, save every PMU MSR). */
void counters_take(void);

/* Events per body, x100, for sel[0..n): in passes of as many events as the
 * driver has general counters; per pass `samples` samples of 0, U and 2U
 * copies, median of (count(2U) - count(U)) / (U*L). err[i] is 0 or why that
 * event has no value (PMU_ERR_*, a fault code). Returns the passes used. */
unsigned counters_measure(struct pmu_driver *d, const struct pmu_eventsel *sel, unsigned n,
                          counters_run_fn run, void *ctx, uint32_t unroll, uint32_t loops,
                          uint32_t samples, int64_t *per_body_x100, int *err);

/* For a benchmark that writes a counter (sys/wrmsr/counter) while events
 * are counted: the MSR of the last general counter, held from every event
 * until the next counters_measure() has placed them all (a hold made for a
 * benchmark that counts nothing ends with the next one's). 0 and *why when
 * the driver has no general counter to spare. */
uint32_t counters_hold_spare(const char **why);

/* Restores the saved PMU MSRs and reads them all back. */
struct counters_restore {
    bool saved;                   /* some PMU MSR could be read (and so saved) */
    bool held;                    /* the harness still held them: restored now (else after the proof) */
    int status;                   /* of the restore */
    struct pmu_restore_check check;
    bool ok;                      /* everything reads back and the restore succeeded */
};
void counters_finish(struct counters_restore *r);

#endif
