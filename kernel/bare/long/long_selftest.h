/* The long-mode self-test cases (long_selftest.c), for struct platform. */
#ifndef CK_BARE_LONG_SELFTEST_H
#define CK_BARE_LONG_SELFTEST_H
#include "platform/selftest.h"

/* ring0_faults plus faults raised in 64-bit code. */
extern const struct provoked_fault long_faults[];
/* The call64 checks (NULL-terminated): a computed value, the largest region's ends. */
extern void (*const long_checks[])(struct selftest_check *c);
/* ring0_bench_faults with #PF raisable (paging is on). */
const struct bench_fault *long_bench_faults(void);

#endif
