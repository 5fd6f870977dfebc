/* The run's settings: every option of the command line, parsed once into
 * this one struct. The option room declares them in the option registry
 * (options/option.h), so `help` lists them and options_parse fills the fields:
 * options/settings.c the portable ones, kernel/bare/options.c and
 * kernel/hosted/options.c each machine's own. Every reader takes the value
 * from here; a benchmark's own numbers (unroll, loops, samples) are
 * resolved against these once, in its plan (harness/plan.h). */
#ifndef CK_SETTINGS_H
#define CK_SETTINGS_H
#include <stdbool.h>
#include <stdint.h>

/* cpuprobe=: take the no-CPUID path of an older CPU on purpose (testing). */
enum { PROBE_AUTO, PROBE_AS_486, PROBE_AS_386 };
/* timer=: auto, else a harness read_mode (harness/timer.h). */
enum { TIMER_AUTO = 4 };

struct settings {
    /* How a benchmark is measured (the defaults a declaration may override). */
    uint32_t samples, warmup, unroll, loops;
    uint32_t alignment_offset;    /* a loaded body's first copy: this many bytes past 64 (docs/registers.md) */
    bool cold, quick;
    uint32_t timer;               /* TIMER_AUTO or an enum read_mode */
    /* What the run does. */
    bool help, selftest, msrscan, list, serve;
    char bench[256];              /* bench=: globs separated by commas */
    char sweep[64];               /* sweep=: one benchmark, every event */
    uint32_t watchdog;            /* ms a loaded body may take (0: no bound) */
    uint32_t cpuprobe;            /* PROBE_* */
    /* Counters. */
    bool pmu;
    char events[256];             /* events=: names or raw codes, comma-separated */
    char sample[64];              /* sample=: EVENT[:PERIOD][:nmi] or time[:US] (harness/sample.h) */
    uint32_t cycles;              /* cycles=: K, a cycle-by-cycle run of k = 1..K (0: none) */
    /* What a result shows. */
    bool hist, raw;
    char format[64];              /* format=: more output formats (formats/formats.c) */
    /* Processors. */
    char cpus[128];               /* which processors start */
    char on[128];                 /* which processors measure each benchmark */
    uint32_t smpfault, smpfaultkind, streamfault; /* testing: a processor that faults */
    char sibling[32];             /* smp/sibling: BODY[,ANTAGONIST] or all */
    /* The machine's own (bare metal: console, exit, long mode, ACPI; the
     * hosted runner: memory, benchmark files). */
    uint32_t serial, baud, screen, keys, exit, mode, pages, acpi;
    bool overflow;
    char module[256];             /* hosted: benchmark files to load */
    uint32_t hostmem;             /* hosted: MiB for mem/ benchmarks */
};

extern struct settings settings;

/* Every option back to its default (options/option.h options_reset): call once
 * before the first options_parse, so the defaults are the registry's. */
void settings_defaults(void);

#endif
