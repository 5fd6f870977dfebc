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

/* A vector raised inside a benchmark body (a generated benchmark function
 * measured by the suite under its guard). The faulting or trapping
 * instruction is the body's last one: a fault reports its own address
 * (body offset size - last_len), a trap the next instruction's, which is the
 * next copy's start (offset 0). b == NULL: the vector cannot be raised on
 * this platform, for the reason in why_not. */
struct bench;
struct bench_fault {
    const char *name;
    const struct bench *b;
    unsigned vector;
    bool trap;
    unsigned last_len;
    const char *why_not;
    /* When QEMU's TCG runs the body to its end without raising the vector
     * (an emulator gap, not the kernel's): why. NULL: no known gap. */
    const char *tcg_gap;
    /* Prepares the machine for the case, or says it was not asked for
     * (false: the case is left out). NULL: always run. */
    bool (*arm)(void);
};

/* What the self-test saw of one bench_fault. */
struct bench_fault_seen {
    const struct bench_fault *c;
    const char *bench;        /* the benchmark's name, NULL when none */
    const char *why_not;      /* not raisable here: why (then nothing else is set) */
    bool cpu_gap;             /* why_not says this CPU (QEMU TCG) did not raise it */
    bool faulted;
    unsigned vector;
    unsigned eip, offset, expect_offset;
    bool eip_in_body;
    const char *state;        /* NULL: the state after the fault was restored */
    bool ok;
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
