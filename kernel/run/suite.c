/* The benchmark suite: counters, timer and trust, then every benchmark
 * bench= selects (bench_run.c measures each), the event sweep, and the
 * PMU's restore check. A benchmark never prints; everything it says goes
 * out through the writers. */
#include "bench_names.h"
#include "bench_run.h"
#include "clock/aperf.h"
#include "cpu/cpu.h"
#include "guarded_step.h"
#include "harness/bench_registry.h"
#include "harness/plan.h"
#include "harness/timer.h"
#include "harness/trust.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "load/loaded.h"
#include "options/option.h"
#include "options/settings.h"
#include "platform/platform.h"
#include "platform/status.h"
#include "pmu/counters.h"
#include "progress.h"
#include "record/log.h"
#include "report/write.h"
#include "smp_phase.h"
#include "suite.h"
#include "sweep.h"

bool suite_selects(const char *name)
{
    char glob[64];
    for (const char *p = settings.bench; (p = kword(p, ",", glob, sizeof glob)) != NULL;)
        if (kglob(glob, name))
            return true;
    return false;
}

static void init_counters(void *arg)
{
    (void)arg;
    counters_prove(cpu, platform->msr, platform->pmu_bind);
    write_pmu(&counters.drv, counters.why, &counters.verdict);
    counters_take();
}

struct timing_setup {
    const struct platform *p;
    const struct plan *reference; /* the trust check's ADD chain, under its plan */
    const struct bench_ctx *ctx;
};

static void init_timing(void *arg)
{
    struct timing_setup *t = arg;
    timer_init(&t->p->timer);
    write_timer(&timer);
    aperf_probe(cpu, t->p->msr);
    trust_check(t->reference, t->ctx);
    write_trust(&trust);
    write_clock(&aperf);
}

/* Every PMU MSR must read back what it held before the run. */
static void finish_counters(void)
{
    if (!settings.pmu)
        return;
    struct counters_restore r;
    counters_finish(&r);
    write_pmu_restore(&r);
}

void suite_list(const struct platform *p)
{
    write_bench_list_heading(bench_all_count() + smp_bench_count());
    for (unsigned i = 0; i < bench_all_count(); i++) {
        char why[160];
        write_bench_entry(bench_all_at(i), bench_unmet_here(p, bench_all_at(i), why, sizeof why));
    }
    /* The smp/ declarations (between_cores.c runs them after the suite). */
    unsigned running = smp_bench_running(p, smp_started());
    for (const struct smp_bench *b = smp_bench_begin(); b < smp_bench_end(); b++) {
        char why[160];
        write_smp_bench_entry(b, smp_bench_unmet(b, running, why, sizeof why));
    }
}

int suite_run_one(const struct platform *p, const struct bench *b, struct fault_info *seen)
{
    return bench_run(p, b, seen);
}

/* The counters, the timer and the trust check, before any benchmark;
 * nonzero: no time base, nothing can be measured. */
static int suite_setup(const struct platform *p, int *status)
{
    struct bench_ctx ctx;
    bench_context(p, NULL, &ctx);
    write_pmu_heading(settings.pmu);
    kmemset(&counters, 0, sizeof counters);
    if (settings.pmu)
        *status = status_worst(*status, guarded_step(p, "performance counters", init_counters, NULL, STATUS_KERNEL_FAULT));
    struct plan reference;
    plan_build(&trust_reference, &settings, &reference);
    struct timing_setup setup = { p, &reference, &ctx };
    int timing = guarded_step(p, "timer and trust check", init_timing, &setup, STATUS_KERNEL_FAULT);
    if (timing)
        log_note("error", "timer", "no time base: the benchmarks cannot run");
    return timing;
}

int suite_run_selected(const struct platform *p, unsigned *ran)
{
    int status = STATUS_OK;
    struct plan defaults;
    plan_build(NULL, &settings, &defaults);
    write_results_heading(&defaults);
    *ran = 0;
    unsigned n = 0;
    for (unsigned i = 0; i < bench_all_count(); i++)
        n += suite_selects(bench_all_at(i)->name);
    progress_start(p, n);
    for (unsigned i = 0; i < bench_all_count(); i++) {
        const struct bench *b = bench_all_at(i);
        if (!suite_selects(b->name))
            continue;
        (*ran)++;
        progress_next(b->name);
        status = status_worst(status, bench_run(p, b, NULL));
    }
    progress_end();
    return status;
}

int suite_serve(const struct platform *p, int (*session)(const struct platform *p))
{
    int status = STATUS_OK;
    int timing = suite_setup(p, &status);
    if (timing)
        return status_worst(status, timing);
    status = status_worst(status, session(p));
    finish_counters();
    return status;
}

/* bench= selects an smp/ declaration (between_cores.c runs it after the suite). */
static bool smp_selected(void)
{
    for (const struct smp_bench *b = smp_bench_begin(); b < smp_bench_end(); b++)
        if (suite_selects(b->name))
            return true;
    return false;
}

/* bench= matched nothing (and no sweep= or smp/ measurement was asked
 * for): a script must not take that for a run that measured. With the
 * self-test the self-test was the work asked for; a warning then. */
static int nothing_selected(bool selftest)
{
    if (selftest) {
        log_note("warn", "bench", "no benchmark matches bench=%s", settings.bench);
        return STATUS_OK;
    }
    char ask[96], near[200];
    options_ask("list", ask, sizeof ask);
    bench_nearest(settings.bench, near, sizeof near);
    log_note("error", "bench", "no benchmark matches bench=%s; nothing was measured (%s for the names)%s",
             settings.bench, ask, near);
    return STATUS_NOTHING_SELECTED;
}

int suite_run(const struct platform *p, int (*before)(const struct platform *p))
{
    int status = STATUS_OK;
    int timing = suite_setup(p, &status);
    if (timing)
        return status_worst(status, timing);
    if (before)
        status = status_worst(status, before(p));
    unsigned ran;
    status = status_worst(status, suite_run_selected(p, &ran));
    if (!ran && !settings.sweep[0] && !smp_selected())
        status = status_worst(status, nothing_selected(before != NULL));
    if (settings.sweep[0])
        status = status_worst(status, event_sweep(p));
    finish_counters();
    return status;
}
