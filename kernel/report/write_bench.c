/* The list of benchmarks (option list): one "bench" record each. */
#include "log.h"
#include "write.h"

void write_bench_list_heading(unsigned count)
{
    log_text("\n== Benchmarks (%u) ==\n", count);
}

void write_bench_entry(const struct bench *b, const char *unmet)
{
    log_text("  %-31s %s\n", b->name, b->desc);
    if (unmet)
        log_text("  %-31s (cannot run here: %s)\n", "", unmet);
    rec_open("bench");
    rec_str("name", b->name);
    rec_str("desc", b->desc);
    rec_bool("runnable", unmet == NULL);
    rec_bool("ring0", b->ring0);
    rec_bool("loaded", b->loaded);
    if (unmet)
        rec_str("reason", unmet);
    rec_close();
}

void write_smp_bench_entry(const struct smp_bench *b, const char *unmet)
{
    log_text("  %-31s %s\n", b->name, b->desc);
    if (unmet)
        log_text("  %-31s (cannot run here: %s)\n", "", unmet);
    rec_open("bench");
    rec_str("name", b->name);
    rec_str("desc", b->desc);
    rec_bool("runnable", unmet == NULL);
    rec_bool("ring0", false);
    rec_bool("loaded", false);
    rec_bool("smp", true);
    rec_u64("min_cpus", b->min_cpus < 2 ? 2 : b->min_cpus);
    if (unmet)
        rec_str("reason", unmet);
    rec_close();
}
