/* The run's settings: every option of the command line, parsed once into
 * this one struct (options/settings.c declares them in the option registry,
 * lib/option.h, so `help` lists them). Readers take the value from here; a
 * benchmark's own numbers (unroll, loops, samples) are resolved against
 * these once, in the plan (harness/plan.h). */
#ifndef CK_SETTINGS_H
#define CK_SETTINGS_H
#include <stdbool.h>
#include <stdint.h>

struct settings {
    /* How a benchmark is measured (the defaults a declaration may override). */
    uint32_t samples, warmup, unroll, loops;
    bool cold, quick;
    /* What the suite does. */
    bool list, pmu;
    char bench[256];              /* bench=: globs separated by commas */
    char sweep[64];               /* sweep=: one benchmark, every event */
    uint32_t watchdog;            /* ms a loaded body may take (0: no bound) */
};

extern struct settings settings;

/* Every option back to its default (lib/option.h options_reset): call once
 * before the first options_parse, so the defaults are the registry's. */
void settings_defaults(void);

#endif
