#ifndef CK_RUN_SELFTEST_H
#define CK_RUN_SELFTEST_H
#include "platform/platform.h"

/* Provokes every fault of the self-test and checks the platform's MSR path:
 * a "selftest" record each; returns STATUS_OK or STATUS_SELFTEST_FAIL. */
int selftest_run(const struct platform *p);

#endif
