/* The benchmark suite: select, check requirements, measure under a guard,
 * report. A benchmark never prints; everything it says goes out here. */
#include "bench_registry.h"
#include "pmu/counters.h"
#include "cpu/cpu.h"
#include "lib/fmt.h"
#include "guarded_step.h"
#include "lib/kstring.h"
#include "measure.h"
#include "platform/msr.h"
#include "lib/option.h"
#include "report/log.h"
#include "result.h"
#include "smi.h"
#include "status.h"
#include "suite.h"
#include "timer.h"
#include "trust.h"
#include "cpu/uarch.h"

OPTION_UINT(samples, "samples", 201, 1, MEASURE_SAMPLES_MAX, "samples per result");
OPTION_UINT(warmup, "warmup", 2, 0, 100, "warm-up runs before sampling");
OPTION_UINT(unroll, "unroll", 8, 1, CK_MAX_COPIES / 2, "copies of the body per loop iteration (U)");
OPTION_UINT(loops, "loops", 100, 1, 1000000, "loop iterations per sample (L)");
OPTION_BOOL(cold, "cold", false, "measure the first execution only (no warm-up, one sample)");
OPTION_BOOL(quick, "quick", false, "fewer samples (31) for a fast overview");
OPTION_BOOL(list, "list", false, "list the benchmarks instead of running them");
OPTION_STR(select, "bench", 256, "*", "which benchmarks: globs separated by commas (p5/*,lat/*)");
OPTION_STR(sweep, "sweep", 64, "",
           "event sweep: run this benchmark once per event of the CPU's counter table");
OPTION_BOOL(pmu, "pmu", true, "use the performance counters when they prove they count");

/* Event samples per result (counting is exact; a few samples find the median). */
#define EVENT_SAMPLES 9

#define SCRATCH_SIZE (64 * 1024)
static uint8_t scratch[SCRATCH_SIZE] __attribute__((aligned(4096)));

static bool selected(const char *name)
{
    char glob[64];
    for (const char *p = opt_select; (p = kword(p, ",", glob, sizeof glob)) != NULL;)
        if (kglob(glob, name))
            return true;
    return false;
}

static void default_context(const struct platform *p, struct bench_ctx *ctx)
{
    *ctx = (struct bench_ctx){ 0 };
    ctx->scratch = scratch;
    ctx->scratch_size = SCRATCH_SIZE;
    ctx->eax = 1;
    ctx->ebx = 1;
    ctx->ecx = 1;
    ctx->edx = 0;
    ctx->esi = (uint32_t)(uintptr_t)scratch;
    ctx->edi = (uint32_t)(uintptr_t)(scratch + SCRATCH_SIZE / 2);
    ctx->unroll = opt_unroll;
    ctx->loops = opt_loops;
    if (p->big_memory)
        p->big_memory(&ctx->big, &ctx->big_size);
}

static void config(struct measure_config *cfg)
{
    cfg->samples = opt_quick && opt_samples == 201 ? 31 : opt_samples;
    cfg->warmup = opt_warmup;
    cfg->unroll = opt_unroll;
    cfg->loops = opt_loops;
    cfg->cold = opt_cold;
}

static void add_event(struct event_counts *ec, const struct pmu_eventsel *sel)
{
    if (ec->n > COUNTERS_EVENTS_MAX)
        return;
    ec->sel[ec->n] = *sel;
    if (sel->name) {
        ec->names[ec->n] = sel->name;
    } else {
        ksnprintf(ec->raw_names[ec->n], sizeof ec->raw_names[0], "0x%x:0x%x", sel->code, sel->umask);
        ec->names[ec->n] = ec->raw_names[ec->n];
    }
    ec->n++;
}

static void choose_events(const struct bench *b, struct event_counts *ec)
{
    ec->n = 0;
    ec->cycles_index = -1;
    if (!counters.active)
        return;
    if (counters.nchosen) {
        for (unsigned i = 0; i < counters.nchosen; i++)
            add_event(ec, &counters.chosen[i]);
    } else if (b->events) {
        char word[48];
        const char *p = b->events;
        while (ec->n < COUNTERS_EVENTS_MAX && (p = kword(p, " ,", word, sizeof word)) != NULL) {
            struct pmu_eventsel sel;
            if (pmu_event_parse(&counters.drv, word, &sel) == 0)
                add_event(ec, &sel);
        }
    }
    if (counters.cycles && !trust.cycles_exact) {
        ec->cycles_index = (int)ec->n;
        add_event(ec, &counters.cycles_sel);
    }
}

struct guarded_measure {
    const struct bench *b;
    const struct measure_config *cfg;
    const struct bench_ctx *ctx;
    struct measurement *m;
    struct event_counts *ec;
};

struct run_ctx {
    const struct bench *b;
    const struct bench_ctx *ctx;
    uint32_t loops;
};

static void run_for_counters(void *arg, uint32_t copies)
{
    struct run_ctx *r = arg;
    measure_run_copies(r->b, r->ctx, r->loops, copies);
}

static void guarded_measure(void *arg)
{
    struct guarded_measure *g = arg;
    /* Cycles are estimated unless the TSC or a counter counts them: then the
     * reference ADD chain is timed in the same sample loop. */
    const struct bench *ref = trust.cycles_exact || g->ec->cycles_index >= 0 ? NULL
                            : bench_find(ADD_CHAIN_NAME);
    measure_bench_with_reference(g->b, ref, g->cfg, g->ctx, g->m);
    if (g->m->failed || g->m->cold || g->ec->n == 0)
        return;
    struct run_ctx r = { g->b, g->ctx, g->m->loops };
    counters_measure(&counters.drv, g->ec->sel, g->ec->n, run_for_counters, &r, g->m->unroll,
                     g->m->loops, EVENT_SAMPLES, g->ec->x100, g->ec->err);
}

static bool uses_fpu(const struct bench *b)
{
    for (int i = 0; i < BENCH_NEEDS_MAX && b->needs[i] != FEAT_NONE; i++)
        if (b->needs[i] == FEAT_FPU)
            return true;
    return false;
}

static int run_one(const struct platform *p, const struct bench *b, const struct measure_config *cfg)
{
    char why[160];
    const char *unmet = bench_unmet(b, p->ring0, why, sizeof why);
    if (unmet) {
        write_skip(b->name, unmet);
        return STATUS_OK;
    }
    struct bench_ctx ctx;
    default_context(p, &ctx);
    if (b->prepare) {
        const char *reason = b->prepare(&ctx);
        if (reason) {
            write_skip(b->name, reason);
            return STATUS_OK;
        }
    }
    static struct measurement m;
    static struct event_counts ec;
    choose_events(b, &ec);
    struct guarded_measure g = { b, cfg, &ctx, &m, &ec };
    char where[96];
    ksnprintf(where, sizeof where, "benchmark %s", b->name);
    uint64_t smi_before = 0, smi_after = 0;
    bool smi = smi_count(&smi_before);
    int status = guarded_step(p, where, guarded_measure, &g, STATUS_BENCH_FAULT);
    m.smi_known = smi && smi_count(&smi_after);
    m.smis = m.smi_known ? (smi_after - smi_before) & 0xffffffffu : 0;
    if (status)
        return status;
    if (uses_fpu(b) && p->after_fault) /* leave the x87 stack empty for the next one */
        p->after_fault();
    if (m.failed) {
        write_skip(b->name, m.failed);
        return STATUS_OK;
    }
    write_result(b, &m, &ec);
    return STATUS_OK;
}

#define SWEEP_MAX 128
struct sweep_job {
    const struct bench *b;
    const struct bench_ctx *ctx;
    const struct measure_config *cfg;
    struct pmu_eventsel sel[SWEEP_MAX];
    const struct pmu_event *ev[SWEEP_MAX];
    int64_t x100[SWEEP_MAX];
    int err[SWEEP_MAX];
    unsigned n, passes;
};

static void guarded_sweep(void *arg)
{
    struct sweep_job *j = arg;
    struct run_ctx r = { j->b, j->ctx, j->cfg->loops };
    j->passes = counters_measure(&counters.drv, j->sel, j->n, run_for_counters, &r, j->cfg->unroll,
                                 j->cfg->loops, EVENT_SAMPLES, j->x100, j->err);
}

/* PmonStat's idea: one benchmark, every event the CPU can count, a table. */
static int event_sweep(const struct platform *p, const struct measure_config *cfg)
{
    const struct bench *b = bench_find(opt_sweep);
    char why[160];
    if (!b) {
        log_note("warn", "sweep", "no benchmark named '%s' (boot with 'list')", opt_sweep);
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
    default_context(p, &ctx);
    if (b->prepare && (unmet = b->prepare(&ctx)) != NULL) {
        write_skip("sweep", unmet);
        return STATUS_OK;
    }
    job.b = b;
    job.ctx = &ctx;
    job.cfg = cfg;
    job.n = 0;
    for (unsigned i = 0; i < counters.drv.nevents && job.n < SWEEP_MAX; i++) {
        const struct pmu_event *e = &counters.drv.events[i];
        if (!pmu_event_available(&counters.drv, e))
            continue;
        job.ev[job.n] = e;
        job.sel[job.n++] = pmu_eventsel_of(e);
    }
    int status = guarded_step(p, "event sweep", guarded_sweep, &job, STATUS_BENCH_FAULT);
    if (status)
        return status;
    log_text("\n== Event sweep: %s (%s driver, %u events in %u passes, per body) ==\n", b->name,
                counters.drv.name, job.n, job.passes);
    rec_open("sweep");
    rec_str("name", b->name);
    rec_str("driver", counters.drv.name);
    rec_u64("passes", job.passes);
    rec_arr_open("events");
    for (unsigned i = 0; i < job.n; i++) {
        char v[24] = "-";
        if (!job.err[i])
            kfixed(v, sizeof v, job.x100[i], 2);
        log_text("  %-40s %12s  %s\n", job.ev[i]->name, v, job.ev[i]->desc);
        rec_obj_open(NULL);
        rec_str("event", job.ev[i]->name);
        rec_hex("code", job.ev[i]->code);
        if (job.err[i])
            rec_null("per_body");
        else
            rec_fixed("per_body", job.x100[i], 2);
        rec_obj_close();
    }
    rec_arr_close();
    rec_close();
    return STATUS_OK;
}

static void init_counters(void *arg)
{
    (void)arg;
    counters_init(cpu, platform_msr);
}

struct timing_setup {
    const struct platform *p;
    const struct measure_config *cfg;
    const struct bench_ctx *ctx;
};

static void init_timing(void *arg)
{
    struct timing_setup *t = arg;
    timer_init(&t->p->timer);
    trust_check(t->cfg, t->ctx);
}

void suite_list(const struct platform *p)
{
    log_text("\n== Benchmarks (%u) ==\n", bench_count());
    for (const struct bench *b = bench_begin(); b < bench_end(); b++) {
        char why[160];
        const char *unmet = bench_unmet(b, p->ring0, why, sizeof why);
        log_text("  %-31s %s\n", b->name, b->desc);
        if (unmet)
            log_text("  %-31s (cannot run here: %s)\n", "", unmet);
        rec_open("bench");
        rec_str("name", b->name);
        rec_str("desc", b->desc);
        rec_bool("runnable", unmet == NULL);
        rec_bool("ring0", b->ring0);
        if (unmet)
            rec_str("reason", unmet);
        rec_close();
    }
}

int suite_run(const struct platform *p)
{
    int status = STATUS_OK;
    struct measure_config cfg;
    config(&cfg);
    struct bench_ctx ctx;
    default_context(p, &ctx);

    log_text("\n== Counters ==\n");
    kmemset(&counters, 0, sizeof counters);
    if (opt_pmu)
        status = status_worst(status, guarded_step(p, "performance counters", init_counters, NULL, STATUS_KERNEL_FAULT));
    else
        log_text("  not used (pmu=off)\n");
    struct timing_setup setup = { p, &cfg, &ctx };
    int timing = guarded_step(p, "timer and trust check", init_timing, &setup, STATUS_KERNEL_FAULT);
    if (timing) {
        log_note("error", "timer", "no time base: the benchmarks cannot run");
        return status_worst(status, timing);
    }
    if (opt_list) {
        suite_list(p);
        if (opt_pmu)
            counters_finish();
        return status;
    }
    log_text("\n== Benchmarks == per body: ticks, core cycles (c exact, ~ estimated); "
                "U=%u L=%u S=%u\n", (unsigned)cfg.unroll, (unsigned)cfg.loops, (unsigned)cfg.samples);
    log_text("  %-31s %8s %9s  %-17s %s\n", "benchmark", "ticks", "cycles", "expected", "verdict");
    unsigned ran = 0;
    for (const struct bench *b = bench_begin(); b < bench_end(); b++) {
        if (!selected(b->name))
            continue;
        ran++;
        status = status_worst(status, run_one(p, b, &cfg));
    }
    if (!ran && !opt_sweep[0])
        log_note("warn", "bench", "no benchmark matches bench=%s", opt_select);
    if (opt_sweep[0])
        status = status_worst(status, event_sweep(p, &cfg));
    if (opt_pmu)
        counters_finish();
    return status;
}
