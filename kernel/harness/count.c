/* The counter loop (count.h): the time loop's 0/U/2U scheme, with counter
 * reads around each run instead of clock reads. */
#include "count.h"
#include "measure.h"
#include "pmu/counters.h"
#include "result.h"
#include "stats/stats.h"

#define COUNT_SAMPLES_MAX 64
static uint64_t counts[PMU_MAX_GP][3][COUNT_SAMPLES_MAX], diff_buf[COUNT_SAMPLES_MAX],
    scratch_buf[COUNT_SAMPLES_MAX];

unsigned count_events(struct pmu_driver *d, const struct pmu_eventsel *sel, unsigned n,
                      count_run_fn prepare, count_run_fn run, void *ctx, uint32_t unroll, uint32_t loops,
                      uint32_t samples, int64_t *per_body_x100, int *err)
{
    bool done[COUNTERS_EVENTS_MAX * 8] = { false };
    unsigned passes = 0;
    if (n > sizeof done / sizeof done[0])
        n = sizeof done / sizeof done[0];
    if (samples > COUNT_SAMPLES_MAX)
        samples = COUNT_SAMPLES_MAX;
    if (samples == 0)
        samples = 1;
    for (unsigned i = 0; i < n; i++) {
        err[i] = 0;
        per_body_x100[i] = 0;
    }
    uint64_t iters = (uint64_t)unroll * loops;
    for (;;) {
        unsigned event_of[PMU_MAX_GP], counter_of[PMU_MAX_GP];
        unsigned placed = plan_pass(d, sel, n, done, event_of, counter_of);
        if (!placed)
            break;
        passes++;
        for (unsigned k = 0; k < placed; k++) {
            done[event_of[k]] = true;
            err[event_of[k]] = pmu_program(d, counter_of[k], &sel[event_of[k]]);
        }
        const uint32_t copies[3] = { 0, unroll, 2 * unroll };
        for (int v = 0; v < 3; v++) { /* warm-up, once per variant */
            if (prepare)
                prepare(ctx, copies[v]);
            run(ctx, copies[v]);
        }
        for (uint32_t s = 0; s < samples; s++) {
            for (int v = 1; v < 3; v++) {
                uint64_t before[PMU_MAX_GP] = { 0 }, after[PMU_MAX_GP] = { 0 };
                if (prepare)
                    prepare(ctx, copies[v]);
                for (unsigned k = 0; k < placed; k++)
                    if (!err[event_of[k]])
                        err[event_of[k]] = pmu_read(d, counter_of[k], &before[k]);
                run(ctx, copies[v]);
                for (unsigned k = 0; k < placed; k++)
                    if (!err[event_of[k]])
                        err[event_of[k]] = pmu_read(d, counter_of[k], &after[k]);
                for (unsigned k = 0; k < placed; k++)
                    counts[k][v][s] = pmu_delta(before[k], after[k], pmu_counter_width(d, counter_of[k]));
            }
        }
        for (unsigned k = 0; k < placed; k++) {
            if (err[event_of[k]])
                continue;
            for (uint32_t s = 0; s < samples; s++)
                diff_buf[s] = counts[k][2][s] > counts[k][1][s] ? counts[k][2][s] - counts[k][1][s] : 0;
            struct stats st;
            stats_compute(diff_buf, samples, scratch_buf, &st);
            per_body_x100[event_of[k]] = (int64_t)stats_div_round(st.median_x100, iters);
        }
        pmu_stop(d);
    }
    for (unsigned i = 0; i < n; i++)
        if (!done[i])
            err[i] = PMU_ERR_EVENT; /* no counter of this driver may count it */
    return passes;
}


struct bench_run {
    const struct bench *b;
    const struct bench_ctx *ctx;
    uint32_t loops;
    const uint8_t *entry; /* where the readied run starts (NULL: b cannot run here) */
};

static void ready_bench(void *arg, uint32_t copies)
{
    struct bench_run *r = arg;
    r->entry = measure_place_copies(r->b, r->ctx, r->loops, copies);
}

static void run_bench(void *arg, uint32_t copies)
{
    struct bench_run *r = arg;
    (void)copies; /* ready_bench placed them */
    measure_run_placed(r->b, r->entry);
}

unsigned count_bench(struct pmu_driver *d, const struct plan *pl, const struct bench *b,
                     const struct bench_ctx *bctx, const struct pmu_eventsel *sel, unsigned n,
                     int64_t *per_body_x100, int *err)
{
    struct bench_run r = { b, bctx, pl->loops, NULL };
    return count_events(d, sel, n, ready_bench, run_bench, &r, pl->unroll, pl->loops, pl->event_samples,
                        per_body_x100, err);
}

void count_measured(struct pmu_driver *d, const struct plan *pl, const struct bench *b,
                    const struct bench_ctx *bctx, const struct measurement *m, struct event_counts *ec)
{
    if (m->failed) { /* no result: no events either */
        ec->n = 0;
        ec->cycles_index = -1;
        return;
    }
    if (m->cold) {
        for (unsigned i = 0; i < ec->n; i++) {
            ec->x100[i] = 0;
            ec->err[i] = PMU_ERR_COLD;
        }
        return;
    }
    if (ec->n == 0)
        return;
    struct plan counted = *pl;
    counted.loops = m->loops; /* the L the time loop took (a PIT timer grows it) */
    count_bench(d, &counted, b, bctx, ec->sel, ec->n, ec->x100, ec->err);
}

unsigned count_sweep(struct pmu_driver *d, const struct bench *b, const struct settings *s,
                     const struct bench_ctx *bctx, const struct pmu_eventsel *sel, unsigned n,
                     int64_t *per_body_x100, int *err)
{
    struct plan pl;
    plan_build(b, s, &pl);
    return count_bench(d, &pl, b, bctx, sel, n, per_body_x100, err);
}
