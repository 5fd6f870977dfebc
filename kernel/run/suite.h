#ifndef CK_SUITE_H
#define CK_SUITE_H
#include "platform/platform.h"

/* Timer, trust check, then every selected benchmark: a result, a skip or a
 * fault record each. Returns the worst status met. `before` (may be NULL)
 * runs once the timer and trust check are up, before any benchmark (the
 * self-test's benchmarks that fault). */
int suite_run(const struct platform *p, int (*before)(const struct platform *p));

/* One benchmark as the suite measures it (a result, a skip or a fault
 * record). With seen != NULL a fault is expected (the self-test): handed
 * back in *seen without an error note. Returns the step's status. */
int suite_run_one(const struct platform *p, const struct bench *b, struct fault_info *seen);

/* Every benchmark bench= selects (built-in and loaded), as suite_run runs
 * them; *ran counts them. For the serial session, after suite_serve's setup. */
int suite_run_selected(const struct platform *p, unsigned *ran);

/* The counters, timer and trust check as suite_run brings them up, then
 * session(p) (the serial session: it runs benchmarks on request), then the
 * PMU restore check. Returns the worst status met. */
int suite_serve(const struct platform *p, int (*session)(const struct platform *p));

/* Whether bench= selects the benchmark or measurement of this name (its
 * comma-separated globs). */
bool suite_selects(const char *name);

/* The list of benchmarks (option list): name, what it needs, description. */
void suite_list(const struct platform *p);

#endif
