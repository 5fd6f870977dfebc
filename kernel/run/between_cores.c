/* The smp/ measurements between processors, after the suite (the TSC is
 * calibrated and the trust check has spoken by then): every declaration of
 * the ck_smp_benches section (BENCH_SMP, bench/smp_between.c) in its
 * file's order, when bench= selects it, enough processors run and the CPU
 * has what it needs. The measuring and writing is the declaration's .run
 * (kernel/run/smp_runs.c). */
#include "between_cores.h"
#include "harness/bench_registry.h"
#include "harness/timer.h"
#include "harness/trust.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "record/log.h"
#include "report/write.h"
#include "smp_phase.h"
#include "suite.h"


bool between_cores_named(void)
{
    char word[64];
    for (const char *at = settings.bench; (at = kword(at, ",", word, sizeof word)) != NULL;)
        if (kstrncmp(word, "smp/", 4) == 0)
            return true;
    return false;
}

/* Whether b runs here. Too few processors is an info note when bench= asks
 * for smp/ by name (a default bench=* run on one processor says nothing); a
 * missing CPU feature is a skip with the reason, as for any benchmark. */
static bool runs(const struct smp_bench *b, unsigned running)
{
    char why[160];
    if (!suite_selects(b->name))
        return false;
    if (!smp_bench_unmet(b, running, why, sizeof why))
        return true;
    if (running < smp_bench_min_cpus(b)) {
        if (between_cores_named())
            log_note("info", "smp", "%s: %s; not measured", b->name, why);
    } else {
        write_skip(b->name, why);
    }
    return false;
}

void between_cores(const struct platform *p)
{
    const struct smp_info *s = smp_started();
    unsigned running = smp_bench_running(p, s);
    if (settings.list) /* nothing is measured */
        return;
    for (const struct smp_bench *b = smp_bench_begin(); b < smp_bench_end(); b++) {
        if (!runs(b, running))
            continue;
        struct smp_bench_run r = { b->name, p, s, timer.hz, trust.trusted };
        b->run(&r);
    }
}
