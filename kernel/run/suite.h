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

/* The list of benchmarks (option list): name, what it needs, description. */
void suite_list(const struct platform *p);

#endif
