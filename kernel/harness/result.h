/* Writing results: shared by the suite and the event sweep. */
#ifndef CK_RESULT_H
#define CK_RESULT_H
#include <stddef.h>
#include "bench.h"
#include "pmu/counters.h"
#include "measure.h"

/* Events counted for one result: the chosen ones (events=) or the
 * benchmark's own list, and core cycles when the TSC does not count them. */
struct event_counts {
    unsigned n;
    const char *names[COUNTERS_EVENTS_MAX + 1];
    char raw_names[COUNTERS_EVENTS_MAX + 1][16];
    struct pmu_eventsel sel[COUNTERS_EVENTS_MAX + 1];
    int64_t x100[COUNTERS_EVENTS_MAX + 1];
    int err[COUNTERS_EVENTS_MAX + 1];
    int cycles_index; /* -1: cycles not counted */
};

void write_result(const struct bench *b, const struct measurement *m, const struct event_counts *ec);
void write_skip(const char *name, const char *reason);

#endif
