/* The self-test's vocabulary, shared by the run (kernel/run/selftest.c) and
 * the platforms that add their own cases. */
#ifndef CK_PLATFORM_SELFTEST_H
#define CK_PLATFORM_SELFTEST_H
#include <stdbool.h>

/* A fault provoked on purpose: fn must raise `vector` under the guard. */
struct provoked_fault {
    const char *name;
    void (*fn)(void *);
    unsigned vector;
};

/* A check that is not a provoked fault (e.g. an MSR read): what was
 * expected, what was seen, and whether that is right. */
struct selftest_check {
    const char *name;
    const char *expected;
    char seen[32];
    bool ok;
};

#endif
