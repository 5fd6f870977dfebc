/* The self-test's common part: provoke faults under the guard and check
 * each comes back with the expected vector. The platforms add their own
 * cases (how to provoke #GP differs between ring 0 and ring 3) and their
 * own MSR check. */
#ifndef CK_SELFTEST_COMMON_H
#define CK_SELFTEST_COMMON_H

struct provoked_fault {
    const char *name;
    void (*fn)(void *);
    unsigned vector;
};

/* #DE and #UD, provoked the same way on every platform. */
extern const struct provoked_fault selftest_common_cases[];
extern const unsigned selftest_common_count;

/* Runs each case under guard_run, reports a "selftest" record per case and
 * the fault itself; returns STATUS_OK or STATUS_SELFTEST_FAIL. */
int selftest_provoke(const struct provoked_fault *cases, unsigned n);

/* One "selftest" record and its readable line for a check that is not a
 * provoked fault (e.g. an MSR read). */
void write_selftest(const char *name, const char *expected, const char *seen, int ok);

#endif
