/* The option table: every portable option, declared once, its value kept
 * in `settings` (settings.h, defined in settings_store.c). This file names
 * the limits of the rooms that use the options (harness, smp), so it sits at
 * the top of the order, under the mains (docs/architecture.md: `registry`);
 * the struct itself sits low, where every room may read it. The machines declare their own in
 * kernel/bare/options.c and kernel/hosted/options.c.
 *
 * The order below is the help table's, reversed: the ck_options section
 * lists one file's entries last to first. */
#include "harness/bench.h"
#include "harness/measure.h"
#include "harness/sample.h"
#include "harness/timer.h"
#include "options/option.h"
#include "platform/smp.h"
#include "settings.h"
#include "smp/sibling_choice.h"


OPTION_STR_AT(sibling, settings.sibling, "sibling", SIBLING_DEFAULT,
              "smp/sibling: BODY[,ANTAGONIST] or all (add against each): " SIBLING_NAMES);
OPTION_UINT_AT(streamfault, &settings.streamfault, "streamfault", 0, 0, 0xffffffffu, NULL,
               "test: in smp/chase/loaded the streamer with this APIC ID (not the boot one) faults (#UD) "
               "as it starts streaming; it is abandoned and the run completes");
OPTION_BOOL_AT(serve, &settings.serve, "serve", false,
               "serial session: wait for requests (run, load, list, identify, reboot, end) instead of "
               "running the suite");

/* How a benchmark is measured. */
OPTION_UINT_AT(samples, &settings.samples, "samples", 201, 1, MEASURE_SAMPLES_MAX, NULL,
               "samples per result");
OPTION_UINT_AT(warmup, &settings.warmup, "warmup", 2, 0, 100, NULL, "warm-up runs before sampling");
OPTION_UINT_AT(unroll, &settings.unroll, "unroll", 8, 1, CK_MAX_COPIES / 2, NULL,
               "copies of the body per loop iteration (U)");
/* auto: the harness picks L (kernel/harness/plan.c); a number is kept as given. */
static const struct option_name loops_auto[] = { { "auto", 0 }, { NULL, 0 } };
OPTION_UINT_AT(loops, &settings.loops, "loops", 0, 0, 1000000, loops_auto,
               "loop iterations per sample (L); auto: 100, more until a sample spans 1000 timer steps");
OPTION_UINT_AT(alignment_offset, &settings.alignment_offset, "alignment_offset", 0, 0, 63, NULL,
               "where a loaded body's copies start: this many bytes past a 64-byte boundary, the same "
               "for U and 2U (nanoBench's -alignment_offset)");
OPTION_BOOL_AT(cold, &settings.cold, "cold", false,
               "measure the first execution only (no warm-up, one sample)");
OPTION_BOOL_AT(quick, &settings.quick, "quick", false, "fewer samples (31) for a fast overview");
OPTION_BOOL_AT(list, &settings.list, "list", false, "list the benchmarks instead of running them");
OPTION_STR_AT(select, settings.bench, "bench", "*",
              "which benchmarks: globs separated by commas (p5/*,lat/*)");
OPTION_STR_AT(sweep, settings.sweep, "sweep", "",
              "event sweep: run this benchmark once per event of the CPU's counter table");
OPTION_UINT_AT(watchdog, &settings.watchdog, "watchdog", 2000, 0, 600000, NULL,
               "ms a loaded benchmark's measurement may take before it is stopped as a fault (0: no bound)");
OPTION_BOOL_AT(pmu, &settings.pmu, "pmu", true, "use the performance counters when they prove they count");

/* Processors. */
OPTION_STR_AT(cpus, settings.cpus, "cpus", "all",
              "which processors start: all, N (the first N the platform lists: the MADT, or the "
              "hosted runner's allowed CPUs; 1: only the boot one) or APIC IDs with commas (0,2,5)");
OPTION_UINT_AT(smpfault, &settings.smpfault, "smpfault", 0, 0, 0xffffffffu, NULL,
               "test: the processor with this APIC ID (not the boot one) faults as it starts");
static const struct option_name fault_kinds[] = {
    { "ud", SMP_FAULT_UD }, { "overflow", SMP_FAULT_OVERFLOW }, { NULL, 0 },
};
OPTION_ENUM_AT(smpfaultkind, &settings.smpfaultkind, "smpfaultkind", SMP_FAULT_UD, fault_kinds,
               "with smpfault=: ud (it executes UD2: #UD) or overflow (it pushes until its stack is "
               "gone: a double fault, caught on its own double-fault stack)");

/* What the run does besides measuring. */
OPTION_BOOL_AT(help, &settings.help, "help", false, "print the options and their values; nothing is measured");
OPTION_BOOL_AT(selftest, &settings.selftest, "selftest", false,
               "provoke #DE, #UD, #GP and a nonexistent MSR read, then every vector a benchmark body "
               "can raise (inside a benchmark); check each is caught and the state restored");
OPTION_BOOL_AT(msrscan, &settings.msrscan, "msrscan", false,
               "read MSRs 0x0-0x1FFF, 0xC0000000-0xC0001FFF, 0xC0010000-0xC0011FFF (reads only)");
OPTION_STR_AT(on, settings.on, "on", "",
              "run each benchmark on these processors one at a time: all, N (the first N running) "
              "or APIC IDs with commas (0,2); default: the boot processor (on a hybrid CPU: one "
              "processor of each core type)");

/* What a result shows, and the counters and timer it is taken with. */
OPTION_BOOL_AT(raw, &settings.raw, "raw", false, "also print every raw sample (t(0), t(U), t(2U))");
OPTION_STR_AT(events, settings.events, "events", "",
              "counter events per result: names or raw codes (0xC0, 0x2e:0x41), comma-separated");
OPTION_STR_AT(sample, settings.sample, "sample", "",
              "sample where each benchmark's body spends: EVENT[:PERIOD][:nmi] (a counter's overflow "
              "every PERIOD events, default 997) or time[:US] (a timer, default 100 us); docs/measuring.md");
OPTION_UINT_AT(cycles, &settings.cycles, "cycles", 0, 0, CYCLES_MAX, NULL,
               "cycle by cycle: interrupt after k = 1..K cycles, instructions retired at each (0: off)");
static const struct option_name timer_modes[] = {
    { "auto", TIMER_AUTO }, { "cpuid", READ_CPUID }, { "rdtscp", READ_RDTSCP },
    { "lfence", READ_LFENCE }, { "pit", READ_PIT }, { NULL, 0 },
};
OPTION_ENUM_AT(timer, &settings.timer, "timer", TIMER_AUTO, timer_modes,
               "counter reads: auto, cpuid (CPUID;RDTSC), rdtscp, lfence, pit (no TSC)");
OPTION_BOOL_AT(hist, &settings.hist, "hist", false, "also print a histogram of each result's samples");
OPTION_STR_AT(format, settings.format, "format", "",
              "more formats on the output, comma-separated: tap (TAP13 results); "
              "readable text and JSON are always on");

static const struct option_name probe_modes[] = {
    { "auto", PROBE_AUTO }, { "486", PROBE_AS_486 }, { "386", PROBE_AS_386 }, { NULL, 0 },
};
OPTION_ENUM_AT(cpuprobe, &settings.cpuprobe, "cpuprobe", PROBE_AUTO, probe_modes,
               "auto, or take the no-CPUID path of a 486 / 386 (testing)");

_Static_assert((int)TIMER_AUTO > (int)READ_CPUID && (int)TIMER_AUTO > (int)READ_RDTSCP &&
                   (int)TIMER_AUTO > (int)READ_LFENCE && (int)TIMER_AUTO > (int)READ_PIT,
               "timer=auto is no read mode");

void settings_defaults(void)
{
    options_reset();
}
