/* The list of benchmarks (option list): one "bench" record each (its
 * readable lines: formats/text.c). */
#include "record/log.h"
#include "harness/bench_registry.h"
#include "write.h"

void write_bench_list_heading(unsigned count)
{
    log_text("\n== Benchmarks (%u) ==\n", count);
}

/* One entry; min_cpus 0: a benchmark with a body, else a measurement
 * between processors (BENCH_SMP), which says so and how many it needs. */
static void entry(const char *name, const char *desc, const char *unmet, bool ring0, bool loaded,
                  unsigned min_cpus)
{
    rec_open("bench");
    rec_str("name", name);
    rec_str("desc", desc);
    rec_bool("runnable", unmet == NULL);
    rec_bool("ring0", ring0);
    rec_bool("loaded", loaded);
    if (min_cpus) {
        rec_bool("smp", true);
        rec_u64("min_cpus", min_cpus);
    }
    if (unmet)
        rec_str("reason", unmet);
    rec_close();
}

void write_bench_entry(const struct bench *b, const char *unmet)
{
    entry(b->name, b->desc, unmet, b->ring0, b->loaded, 0);
}

void write_smp_bench_entry(const struct smp_bench *b, const char *unmet)
{
    entry(b->name, b->desc, unmet, false, false, smp_bench_min_cpus(b));
}
