#ifndef CK_SUITE_H
#define CK_SUITE_H
#include "platform/platform.h"

/* Timer, trust check, then every selected benchmark: a result, a skip or a
 * fault record each. Returns the worst status met. */
int suite_run(const struct platform *p);

/* The list of benchmarks (option list): name, what it needs, description. */
void suite_list(const struct platform *p);

#endif
