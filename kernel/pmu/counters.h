/* Performance counters in the harness: choose the driver, prove it counts,
 * take them for the run (the harness counts events around bodies:
 * harness/count.c), and restore every PMU MSR at the end. Without a
 * counting driver, results carry time only. */
#ifndef CK_COUNTERS_H
#define CK_COUNTERS_H
#include <stdbool.h>
#include <stdint.h>
#include "pmu.h"
#include "pmu_prove.h"

#define COUNTERS_EVENTS_MAX 16

struct counters {
    bool active;                  /* the driver proved it counts (some of its events, PMU_LINUX) */
    const char *why;              /* why this driver (or none) */
    struct pmu_driver drv;
    struct pmu_verdict verdict;
    bool cycles;                  /* a core-cycle event is available (exact cycle unit) */
    struct pmu_eventsel cycles_sel;
    struct pmu_eventsel chosen[COUNTERS_EVENTS_MAX]; /* from events= */
    unsigned nchosen;
    bool chose_once;              /* events= was parsed since the proof */
};

extern struct counters counters;

/* Binds *d to the counters an operating system lends (platform.h's
 * pmu_bind: the hosted runner's Linux perf events); false: none. */
typedef bool (*counters_os_bind)(struct pmu_driver *d, const struct cpu_info *c, const char **why);

/* Select, bind and prove the driver (workload: a loop of known length):
 * os_bind's when given, else the CPU's own counters through msr. */
void counters_prove(const struct cpu_info *c, const struct msr_ops *msr, counters_os_bind os_bind);
/* After the proof was reported: take the counters for the run (the cycle
 * event, events=, save every PMU MSR). */
void counters_take(void);

/* events= to counters.chosen (counters_take does it; a serve session's run
 * request again, with the request's options), each problem noted once per list. */
void counters_choose_events(void);

/* One pass of the counter loop (harness/count.c): places as many of the
 * events not yet done as there are counters that may count them;
 * event_of[k] is counted by counter_of[k]. Returns how many it placed. */
unsigned plan_pass(struct pmu_driver *d, const struct pmu_eventsel *sel, unsigned n,
                   const bool *done, unsigned *event_of, unsigned *counter_of);

/* For a benchmark that writes a counter (sys/wrmsr/counter) while events
 * are counted: the MSR of the last general counter, held from every event
 * until the next count_events() (harness/count.c) has placed them all (a hold made for a
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
