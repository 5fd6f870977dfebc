/* The ring-0 self-test cases (struct platform's faults and msr_selftest). */
#ifndef CK_BARE_SELFTEST_H
#define CK_BARE_SELFTEST_H
#include "platform/selftest.h"

extern const struct provoked_fault ring0_faults[];
/* The #GP case, shared with long mode's list (long/long_selftest.c). */
void ring0_general_protection(void *arg);
void ring0_msr_selftest(struct selftest_check *c);
/* bench_faults.c: the vectors raised inside a benchmark body. */
extern const struct bench_fault ring0_bench_faults[];

#endif
