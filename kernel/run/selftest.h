#ifndef CK_RUN_SELFTEST_H
#define CK_RUN_SELFTEST_H
#include "platform/platform.h"

/* Provokes every fault of the self-test and checks the platform's MSR path:
 * a "selftest" record each; returns STATUS_OK or STATUS_SELFTEST_FAIL. */
int selftest_run(const struct platform *p);

/* The platform's vectors raised inside benchmark bodies (struct platform's
 * bench_faults), each measured by the suite under its guard: a fault record
 * and a "selftest" record each, no error note. Run by suite_run() once the
 * timer is up. Returns STATUS_OK or STATUS_SELFTEST_FAIL. */
int selftest_in_benchmarks(const struct platform *p);

#endif
