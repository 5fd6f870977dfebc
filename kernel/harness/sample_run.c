/* The sampled run (harness/sample.h): after a benchmark's time was
 * measured, its body runs again, placed as for counting (U copies, L loop
 * iterations), with the platform's sampler armed: a probe finds an L that
 * takes samples, then runs long enough for SAMPLE_TARGET of them follow
 * (at most RUNS_MAX). The interrupts exist only inside this run: the
 * measurement before it ran with them off. */
#include "sample.h"
#include "bench.h"
#include "measure.h"
#include "plan.h"
#include "lib/kstring.h"
#include "platform/platform.h"
#include "pmu/counters.h"

#define RUNS_MAX 4096u
#define LOOPS_MAX 1000000u /* as measure.c's: L beyond it, more runs */
/* Loop iterations the probe runs without one sample before it concludes the
 * event does not happen in this body (a timer's tick always comes: it is
 * given more, a few seconds of a fast body on an emulator). */
#define PROBE_EVENT_ITERS (1ull << 25)
#define PROBE_TIME_ITERS (1ull << 28)
#define LOOP_SPAN 8u      /* bytes of the loop's JMP before the copies, and of DEC/JNZ after them */

static void layout_of(const uint8_t *entry, uint32_t copies, uint32_t size, struct sample_layout *l)
{
    uint64_t end = (uint64_t)(uintptr_t)entry + (uint64_t)copies * size;
    uint64_t block = end - (uint64_t)CK_MAX_COPIES * size; /* the placed block's first copy */
    *l = (struct sample_layout){ .entry = (uintptr_t)entry, .copies = copies, .copy_size = size,
                                 .loop_lo = block - LOOP_SPAN, .loop_hi = block,
                                 .loop2_lo = end, .loop2_hi = end + LOOP_SPAN };
}

static void result_start(const struct sample_spec *spec, struct sample_result *r)
{
    *r = (struct sample_result){ 0 };
    r->source = spec->source;
    r->period = spec->period;
    r->nmi = spec->nmi;
    r->unit = spec->source == SAMPLE_TIME ? "us" : "events";
    if (spec->source == SAMPLE_TIME)
        kstrlcpy(r->label, "time", sizeof r->label);
    else
        (void)pmu_eventsel_label(spec->drv, spec->sel, r->label, sizeof r->label);
}

void sample_disarm(const struct platform *p)
{
    struct sample_end ignored;
    if (p->sampler && p->sampler->stop)
        p->sampler->stop(&ignored);
}

static void run_and_collect(const struct platform *p, const struct bench *b, const uint8_t *entry)
{
    measure_run_placed(b, entry);
    if (p->sampler->collect)
        p->sampler->collect();
}

/* A whole number of `per`s near `loops`, at least one, at most LOOPS_MAX. */
static uint32_t whole_periods(uint32_t loops, uint32_t per)
{
    uint32_t m = (loops + per / 2) / per;
    if (m < 1)
        m = 1;
    if ((uint64_t)m * per > LOOPS_MAX)
        m--;
    return m * per;
}

static void take_skid(const struct platform *p, struct sample_result *r)
{
    r->skid_why = "the platform cannot measure it";
    if (p->sampler->skid)
        r->skid_known = p->sampler->skid(&r->skid, &r->skid_why);
    if (r->skid_known)
        r->skid_why = NULL;
}

void sample_bench(const struct platform *p, const struct bench *b, const struct plan *pl,
                  const struct bench_ctx *ctx, const struct sample_spec *spec, struct sample_result *r)
{
    result_start(spec, r);
    const char *why = !p->sampler ? "this platform has no sampler" : p->sampler->refusal(spec);
    int32_t size = bench_copy_size(b);
    if (!why && size <= 0)
        why = size == 0 ? "the body is empty" : "the body's copies differ in size: no offset names one instruction";
    const uint8_t *entry = why ? NULL : measure_place_copies(b, ctx, pl->loops, pl->unroll);
    if (!why && !entry)
        why = "the body cannot be placed here";
    if (why) {
        r->failed = why;
        return;
    }
    layout_of(entry, pl->unroll, (uint32_t)size, &r->layout);
    r->copy = entry;
    if ((why = p->sampler->start(spec)) != NULL) {
        r->failed = why;
        return;
    }
    take_skid(p, r);
    /* The probe: runs of L, L doubled after each run without a sample,
     * until one came; its rate then sizes one run long enough for the
     * target, so that the interrupts keep one phase over the whole body (a
     * run's prologue and the harness between runs shift it: shares are
     * exact only within a run). A timer's first tick comes after its period
     * of time, which a short run of a fast body is far below. */
    uint32_t loops = pl->loops ? pl->loops : 100;
    uint64_t iters = 0, limit = spec->source == SAMPLE_TIME ? PROBE_TIME_ITERS : PROBE_EVENT_ITERS;
    sample_reset(); /* a tick pending since before the start lands in the harness, not in a run */
    for (; (sample_buf.n == 0 && sample_buf.lost == 0 && iters < limit) || iters == 0; r->runs++) {
        run_and_collect(p, b, entry);
        iters += loops;
        if (sample_buf.n == 0 && loops < LOOPS_MAX) {
            loops = loops * 2 > LOOPS_MAX ? LOOPS_MAX : loops * 2;
            entry = measure_place_copies(b, ctx, loops, pl->unroll);
        }
    }
    bool came = sample_buf.n || sample_buf.lost;
    uint32_t probe_n = sample_buf.n;
    if (sample_buf.n && sample_buf.n < SAMPLE_TARGET / 2) {
        uint64_t want = iters * SAMPLE_TARGET / sample_buf.n + 1;
        loops = want > LOOPS_MAX ? LOOPS_MAX : (uint32_t)want;
        /* A whole number of periods of iterations: a body with E events an
         * iteration then takes exactly E samples per period of loops, one on
         * each of its events in turn (the period coprime to E), so every
         * instruction's count is the same to one sample. */
        if (spec->source == SAMPLE_EVENT && spec->period <= LOOPS_MAX / 2)
            loops = whole_periods(loops, (uint32_t)spec->period);
        entry = measure_place_copies(b, ctx, loops, pl->unroll);
        sample_reset();
    }
    for (uint32_t runs = 0; came && runs < RUNS_MAX && sample_buf.n < SAMPLE_TARGET; runs++, r->runs++)
        run_and_collect(p, b, entry);
    r->loops = loops;
    if (sample_buf.n == 0 && probe_n)
        sample_buf.n = probe_n; /* sampling stopped in the probe (a storm): its samples stand, still in the buffer */
    p->sampler->stop(&r->end);
    if (r->end.period) { /* the platform's own unit (a Linux clock event's ns) */
        r->period = r->end.period;
        r->unit = r->end.unit;
    }
    r->layout.handler_lo = r->end.handler_lo;
    r->layout.handler_hi = r->end.handler_hi;
    sample_attribute(&r->layout, sample_buf.ip, sample_buf.n, &r->profile);
    if (r->profile.total == 0 && !r->end.stopped)
        r->end.stopped = "no interrupt came in the runs (the event may not happen in this body)";
}

/* One pass of the copies: the loop run once. */
struct cycles_run {
    const struct bench *b;
    const uint8_t *entry;
};

static void one_pass(void *arg)
{
    struct cycles_run *c = arg;
    measure_run_placed(c->b, c->entry);
}

#define CYCLES_SEARCH 4096u /* steps to find where the first copy begins */

/* Cycle-by-cycle: k counts from the enabling of the counters, which lies
 * before the body's call (the harness's own code); the first k whose
 * interrupt lands on the first copy's first instruction is the timeline's
 * cycle 0, found by walking k up, and the n steps from there follow. */
void cycles_bench(const struct platform *p, struct pmu_driver *drv, const struct bench *b,
                  const struct plan *pl, const struct bench_ctx *ctx, uint32_t n, struct cycles_result *r)
{
    *r = (struct cycles_result){ 0 };
    int32_t size = bench_copy_size(b);
    const struct pmu_eventsel *cyc = counters.cycles ? &counters.cycles_sel : NULL;
    const struct pmu_eventsel *ins = drv->proof[PMU_PROOF_INSN].used ? &drv->proof[PMU_PROOF_INSN].sel : NULL;
    if (!p->sampler || !p->sampler->cycle_step)
        r->failed = "this platform has no cycles counter with interrupts";
    else if (!counters.active || !cyc || !ins)
        r->failed = "no proven cycles and instructions counters";
    else if (b->mode == 64)
        r->failed = "cycle by cycle runs 32-bit bodies only";
    else if (size <= 0)
        r->failed = "the body's copies have no single size";
    if (r->failed)
        return;
    const uint8_t *entry = measure_place_copies(b, ctx, 1, pl->unroll);
    if (!entry) {
        r->failed = "the body cannot be placed here";
        return;
    }
    layout_of(entry, pl->unroll, (uint32_t)size, &r->layout);
    r->n = n > CYCLES_MAX ? CYCLES_MAX : n;
    struct cycles_run run = { b, entry };
    struct cycle_step st;
    uint32_t k0 = 0;
    for (uint32_t k = 1; k <= CYCLES_SEARCH && !k0; k++) {
        if ((r->failed = p->sampler->cycle_step(drv, cyc, ins, k, one_pass, &run, &st)) != NULL)
            return;
        if (st.taken && st.ip == r->layout.entry)
            k0 = k, r->base = st.retired;
    }
    if (!k0) {
        r->failed = "no interrupt landed on the first copy's first instruction";
        return;
    }
    for (uint32_t i = 0; i < r->n; i++) {
        if ((r->failed = p->sampler->cycle_step(drv, cyc, ins, k0 + i, one_pass, &run, &r->steps[i])) != NULL)
            return;
        r->steps[i].k = i;
    }
}
