/* What the portable run needs from the platform it runs on (bare metal or
 * the hosted Linux runner). */
#ifndef CK_PLATFORM_H
#define CK_PLATFORM_H
#include <stdbool.h>
#include <stdint.h>
#include "harness/timer.h"

struct platform {
    const char *name;             /* "bare" or "hosted": in the begin record */
    const char *cmdline;          /* the options as given */
    void (*describe)(void);       /* readable lines about the machine and console */
    void (*after_cpu_probe)(void);/* e.g. quiet the local APIC (may be NULL) */
    int (*selftest)(void);        /* provoke faults, check each is caught; returns a status */
    bool ring0;                   /* privileged benchmarks can run */
    struct timer_platform timer;  /* calibration and the PIT fallback */
    /* Memory for the mem/ benchmarks beyond the 64 KiB scratch (may be NULL). */
    void (*big_memory)(uint8_t **base, uint64_t *size);
    /* After a benchmark faulted: put the FPU and anything else back in order. */
    void (*after_fault)(void);
};

/* The whole run, begin record to end record; returns the run status. */
int run_suite(const struct platform *p);

#endif
