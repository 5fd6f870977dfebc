/* A benchmark sampled after its measurement (sample=, cycles=; issue 32):
 * the body runs again with the platform's sampler armed, under the fault
 * guard like the measurement, and its "sample" and "cycles" records follow
 * its result. A fault inside the sampled body is reported as the
 * measurement's would be, the sampler disarmed, and the suite goes on. */
#include "sampled.h"
#include "guarded_step.h"
#include "harness/sample.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "platform/status.h"
#include "pmu/counters.h"
#include "record/log.h"
#include "report/write.h"

struct sampled_job {
    const struct platform *p;
    const struct bench *b;
    const struct plan *pl;
    const struct bench_ctx *ctx;
    struct sample_spec spec;
};

static struct sample_result result;
static struct cycles_result timeline;

static void sample_job(void *arg)
{
    struct sampled_job *j = arg;
    bool watch = j->b->loaded && settings.watchdog && j->p->watchdog && j->spec.source == SAMPLE_EVENT;
    if (watch)
        (void)j->p->watchdog(settings.watchdog);
    sample_bench(j->p, j->b, j->pl, j->ctx, &j->spec, &result);
    if (watch)
        (void)j->p->watchdog(0);
}

static void cycles_job(void *arg)
{
    struct sampled_job *j = arg;
    bool watch = j->b->loaded && settings.watchdog && j->p->watchdog;
    if (watch)
        (void)j->p->watchdog(settings.watchdog);
    cycles_bench(j->p, &counters.drv, j->b, j->pl, j->ctx, settings.cycles, &timeline);
    if (watch)
        (void)j->p->watchdog(0);
}

/* sample= as this run gives it; a problem is noted once per text. */
static bool spec_of(struct sample_spec *spec, struct pmu_eventsel *sel)
{
    static char noted[sizeof settings.sample];
    char err[200];
    const char *bad = sample_spec_parse(settings.sample, counters.active ? &counters.drv : NULL, spec, sel,
                                        err, sizeof err);
    if (bad && kstrcmp(noted, settings.sample) != 0) {
        kstrlcpy(noted, settings.sample, sizeof noted);
        log_note("warn", "sample", "%s; no benchmark is sampled", bad);
    }
    spec->drv = &counters.drv;
    return !bad && spec->source != SAMPLE_OFF;
}

int sampled_bench(const struct platform *p, const struct bench *b, const struct plan *pl,
                  const struct bench_ctx *ctx)
{
    static struct pmu_eventsel sel;
    struct sampled_job j = { p, b, pl, ctx, { 0 } };
    int status = STATUS_OK;
    char where[96];
    if (spec_of(&j.spec, &sel)) {
        j.spec.bound_ms = b->loaded ? settings.watchdog : 0;
        ksnprintf(where, sizeof where, "sampled run of %s", b->name);
        status = guarded_step(p, where, sample_job, &j, STATUS_BENCH_FAULT);
        sample_disarm(p); /* after a fault too */
        if (status == STATUS_OK)
            write_sample(b->name, b->mode, &result);
    }
    if (settings.cycles && status == STATUS_OK) {
        ksnprintf(where, sizeof where, "cycle-by-cycle run of %s", b->name);
        status = guarded_step(p, where, cycles_job, &j, STATUS_BENCH_FAULT);
        sample_disarm(p);
        if (status == STATUS_OK)
            write_cycles(b->name, b->mode, &timeline);
    }
    return status;
}
