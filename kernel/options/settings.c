/* The option room: the options that say how the suite measures, declared
 * once, their values kept in `settings` (settings.h). The registry order is
 * the help table's: a section lists one file's entries last to first. */
#include "harness/measure.h"
#include "lib/option.h"
#include "settings.h"

struct settings settings;

OPTION_UINT_AT(samples, &settings.samples, "samples", 201, 1, MEASURE_SAMPLES_MAX, NULL,
               "samples per result");
OPTION_UINT_AT(warmup, &settings.warmup, "warmup", 2, 0, 100, NULL, "warm-up runs before sampling");
OPTION_UINT_AT(unroll, &settings.unroll, "unroll", 8, 1, CK_MAX_COPIES / 2, NULL,
               "copies of the body per loop iteration (U)");
OPTION_UINT_AT(loops, &settings.loops, "loops", 100, 1, 1000000, NULL, "loop iterations per sample (L)");
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

void settings_defaults(void)
{
    options_reset();
}
