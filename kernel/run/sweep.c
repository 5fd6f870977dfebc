/* The event sweep (sweep=, PmonStat's idea): one benchmark, every event the
 * CPU's counter table has, counted under the benchmark's own plan. */
#include "bench_names.h"
#include "bench_run.h"
#include "guarded_step.h"
#include "harness/bench_registry.h"
#include "harness/count.h"
#include "harness/result.h"
#include "load/loaded.h"
#include "options/option.h"
#include "options/settings.h"
#include "platform/status.h"
#include "pmu/counters.h"
#include "record/log.h"
#include "report/write.h"
#include "sweep.h"

struct sweep_job {
    const struct bench_ctx *ctx;
    struct pmu_eventsel sel[SWEEP_MAX];
    struct event_sweep out;
};

static void guarded_sweep(void *arg)
{
    struct sweep_job *j = arg;
    j->out.passes = count_sweep(&counters.drv, j->out.b, &settings, j->ctx, j->sel, j->out.n, j->out.x100,
                                j->out.err);
}

int event_sweep(const struct platform *p)
{
    const struct bench *b = bench_find(settings.sweep) ? bench_find(settings.sweep) : loaded_find(settings.sweep);
    char why[160];
    if (!b) {
        char ask[96], near[200];
        options_ask("list", ask, sizeof ask);
        bench_nearest(settings.sweep, near, sizeof near);
        log_note("warn", "sweep", "no benchmark named '%s' (%s)%s", settings.sweep, ask, near);
        /* The user's mistake: the hosted runner exits 2 for it (bare metal runs on). */
        options_note_mistake("option 'sweep': no benchmark named '%s', so nothing was swept (%s for the names)%s",
                             settings.sweep, ask, near);
        return STATUS_OK;
    }
    const char *unmet = bench_unmet(b, p->ring0, why, sizeof why);
    if (!unmet && !counters.active)
        unmet = "the performance counters are not counting on this machine (see the pmu record)";
    if (unmet) {
        write_skip("sweep", unmet);
        return STATUS_OK;
    }
    static struct sweep_job job;
    struct bench_ctx ctx;
    bench_context(p, b, &ctx);
    if (b->prepare && (unmet = b->prepare(&ctx)) != NULL) {
        write_skip("sweep", unmet);
        return STATUS_OK;
    }
    job.ctx = &ctx;
    job.out = (struct event_sweep){ .b = b, .driver = counters.drv.name };
    for (unsigned i = 0; i < counters.drv.nevents && job.out.n < SWEEP_MAX; i++) {
        const struct pmu_event *e = &counters.drv.events[i];
        if (!pmu_event_available(&counters.drv, e))
            continue;
        job.out.ev[job.out.n] = e;
        job.sel[job.out.n++] = pmu_eventsel_of(e);
    }
    int status = guarded_step(p, "event sweep", guarded_sweep, &job, STATUS_BENCH_FAULT);
    if (status)
        return status;
    write_sweep(&job.out);
    return STATUS_OK;
}

