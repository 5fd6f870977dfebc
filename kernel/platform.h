/* What the portable run needs from the platform it runs on (bare metal or
 * the hosted Linux runner). */
#ifndef CK_PLATFORM_H
#define CK_PLATFORM_H

struct platform {
    const char *name;             /* "bare" or "hosted": in the begin record */
    const char *cmdline;          /* the options as given */
    void (*describe)(void);       /* readable lines about the machine and console */
    void (*after_cpu_probe)(void);/* e.g. quiet the local APIC (may be NULL) */
    int (*selftest)(void);        /* provoke faults, check each is caught; returns a status */
};

/* The whole run, begin record to end record; returns the run status. */
int run_suite(const struct platform *p);

#endif
