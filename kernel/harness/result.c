/* From a measurement to a result: which cycle source is best here, the
 * nanoseconds, the per-body statistics and the verdict against the
 * expectation for this microarchitecture. */
#include "cpu/cpu.h"
#include "uarch/uarch.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "result.h"
#include "timer.h"
#include "trust.h"

/* The expectation for this CPU: a loaded file's own, else the tables of
 * kernel/uarch/, most specific microarchitecture first. */
static const struct uarch_expect *expectation(const struct bench *b, const struct uarch **from)
{
    struct uarch_match here;
    uarch_match(cpu, &here);
    if (!b->file_expect)
        return uarch_expect_for(&here, b->name, from);
    for (unsigned i = 0; i < here.n && !here.uncertain; i++)
        for (const struct bench_expect *e = b->file_expect; e < b->file_expect + BENCH_EXPECT_MAX && e->uarch; e++)
            if (e->uarch == here.u[i]) {
                *from = e->uarch;
                return &e->value;
            }
    return NULL;
}

/* The stated tolerance, or 10 % with at least 0.10 cycles. */
static int64_t expect_tolerance(const struct uarch_expect *e)
{
    return e->tol_x100 ? e->tol_x100 : (e->x100 / 10 > 10 ? e->x100 / 10 : 10);
}

static const char *verdict(const struct result *r)
{
    if (!r->expect)
        return "no expectation";
    if (!r->trusted)
        return "untrusted timing";
    if (!r->have_cycles)
        return "no cycle unit";
    int64_t d = r->cycles_x100 - r->expect->x100;
    return (d < 0 ? -d : d) <= r->tolerance_x100 ? "ok" : "off";
}

static int64_t per_body(uint64_t x100, uint64_t iters) { return (int64_t)stats_div_round(x100, iters); }

static void scale_stats(const struct stats *st, uint64_t iters, struct result_stats *out)
{
    out->min = per_body(st->min * 100, iters);
    out->median = per_body(st->median_x100, iters);
    out->mode = per_body(st->mode * 100, iters);
    out->mode_count = st->mode_count;
    out->mean = per_body(st->mean_x100, iters);
    out->mean_20_80 = per_body(st->trimmed_mean_x100, iters);
    out->max = per_body(st->max * 100, iters);
    out->stddev = per_body(st->stddev_x100, iters);
    out->outliers = st->outliers;
}

static void histogram(const struct measurement *m, struct result *r)
{
    static uint64_t values[MEASURE_SAMPLES_MAX];
    uint64_t lo, width;
    for (uint32_t s = 0; s < m->samples; s++)
        values[s] = m->t_2u[s] > m->t_u[s] ? m->t_2u[s] - m->t_u[s] : 0;
    stats_sort(values, m->samples);
    r->hist_bins = stats_histogram(values, m->samples, RESULT_HIST_BINS, r->hist_count, &lo, &width);
    for (unsigned i = 0; i < r->hist_bins; i++)
        r->hist_from_x100[i] = per_body((lo + i * width) * 100, r->iters);
}

/* The ADD-chain estimate beside APERF's count: alongside, else the chain
 * timed once at the start; disagreeing by more than 2 % is worth a note. */
static void check_estimate(const struct measurement *m, struct result *r)
{
    if (trust.cycles_exact)
        return;
    r->have_estimate = measure_ref_cycles_x100(m, &r->estimate_x100) ||
                       trust_cycles_x100(m->value_x100, &r->estimate_x100);
    r->estimate_disagrees = r->have_estimate && aperf_disagrees(r->cycles_x100, r->estimate_x100);
}

/* Best first: APERF read around the same samples (a count of core cycles,
 * taken with the time itself), a proved cycle counter (counted in separate
 * passes), the P5's TSC, the ADD chain timed alongside, the ADD chain timed
 * once at the start. */
static void cycles(const struct measurement *m, const struct event_counts *ec, struct result *r)
{
    if (m->aperf.have) {
        r->have_cycles = r->cycles_exact = true;
        r->cycles_x100 = m->aperf.cycles_x100;
        r->cycles_unit = "exact (aperf)";
        check_estimate(m, r);
        return;
    }
    bool counted = ec->cycles_index >= 0 && !ec->err[ec->cycles_index] && !m->cold;
    r->have_cycles = true;
    if (counted)
        r->cycles_x100 = ec->x100[ec->cycles_index];
    else if (trust.cycles_exact || !(r->cycles_alongside = measure_ref_cycles_x100(m, &r->cycles_x100)))
        r->have_cycles = trust_cycles_x100(m->value_x100, &r->cycles_x100);
    r->cycles_exact = counted || trust.cycles_exact;
    r->cycles_unit = !r->have_cycles ? "unknown" : counted ? "exact (counter)"
                   : trust.cycles_exact ? "exact" : "estimate";
}

void result_marks(const struct stats_judgement *j, bool trusted, bool disturbed, char *marks)
{
    unsigned n = 0;
    if (!trusted)
        marks[n++] = RESULT_MARK_UNTRUSTED;
    if (j->verdict == STATS_VERDICT_NOT_JUDGED)
        marks[n++] = RESULT_MARK_NOT_JUDGED;
    else if (j->verdict == STATS_VERDICT_UNSTABLE)
        marks[n++] = RESULT_MARK_UNSTABLE;
    if (j->flags & (STATS_FLAG_NEGATIVES | STATS_FLAG_CLAMPED))
        marks[n++] = RESULT_MARK_NEGATIVES;
    if (j->flags & (STATS_FLAG_MODES | STATS_FLAG_NONLINEAR))
        marks[n++] = RESULT_MARK_MODES;
    if (disturbed)
        marks[n++] = RESULT_MARK_DISTURBED;
    if (!n) {
        marks[n++] = 'o';
        marks[n++] = 'k';
    }
    marks[n] = '\0';
}

/* Samples disturbed by what happens behind the body's back: SMIs counted
 * around the measurement (bench_run.c reads MSR_SMI_COUNT), or, hosted, the
 * scheduler switching the thread out during more than 5 % of the samples
 * (the same share as the negatives' rule: a few switched samples are outliers
 * the median ignores). */
static bool disturbed(const struct measurement *m)
{
    return (m->smi_known && m->smis > 0) || (m->switches_known && (uint64_t)m->switched * 20 > m->samples);
}

void result_compute(const struct bench *b, const struct measurement *m, const struct event_counts *ec,
                    struct result *r)
{
    *r = (struct result){ .b = b, .m = m, .ec = ec, .trusted = trust.trusted };
    r->iters = (uint64_t)m->unroll * (m->cold ? 1 : m->loops);
    cycles(m, ec, r);
    r->have_ns = timer.hz != 0;
    if (r->have_ns)
        r->ns_x100 = (int64_t)(((m->value_x100 < 0 ? 0 : (uint64_t)m->value_x100) * 1000000000ull +
                                timer.hz / 2) / timer.hz);
    r->time_unit = timer.mode == READ_PIT ? "pit/1000" : "tsc";
    scale_stats(&m->diff, r->iters, &r->per_body);
    r->expect = expectation(b, &r->expect_uarch);
    if (r->expect)
        r->tolerance_x100 = expect_tolerance(r->expect);
    r->verdict = verdict(r);
    r->disturbed = disturbed(m);
    result_marks(&m->judge, r->trusted, r->disturbed, r->marks);
    if (settings.hist && !m->cold)
        histogram(m, r);
}

void result_memory(struct result *r, const struct bench_ctx *ctx, uint64_t page, const char *page_why)
{
    /* mem/ and its 64-bit twin mem64/ (bench/mem64_chase.c) */
    r->memory = kstrncmp(r->b->name, "mem/", 4) == 0 || kstrncmp(r->b->name, "mem64/", 6) == 0;
    r->working_set = ctx->working_set;
    r->llc = ctx->llc;
    r->page_size = page;
    r->page_why = page ? NULL : page_why;
}
