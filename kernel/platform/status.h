/* The run's exit status (QEMU's isa-debug-exit turns it into the process's
 * exit code; scripts/run-qemu maps it back). Larger is worse; a run ends
 * with the worst status it met. */
#ifndef CK_STATUS_H
#define CK_STATUS_H

enum run_status {
    STATUS_OK = 0,            /* complete, nothing wrong */
    STATUS_ERRORS = 1,        /* complete, but error notes were reported */
    STATUS_BENCH_FAULT = 2,   /* complete, a benchmark faulted (reported, run went on) */
    STATUS_KERNEL_FAULT = 3,  /* a kernel phase faulted unexpectedly */
    STATUS_SELFTEST_FAIL = 4, /* the self-test did not see what it provoked */
    STATUS_NOTHING_SELECTED = 5, /* complete, but bench= matched nothing: nothing was measured */
};

static inline int status_worst(int a, int b) { return a > b ? a : b; }

#endif
