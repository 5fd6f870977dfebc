/* How far one measurement can be trusted: the pure checks of
 * kernel/stats/stats_checks.h applied to the samples measure.c took, in the
 * order a reader needs their reasons (issue 20): negative differences,
 * enough samples to judge, a long enough sample, modes, linearity in the
 * copy count, the cycle reference against the start-up rate. */
#include "lib/fmt.h"
#include "measure.h"
#include "timer.h"

/* Ensembles agree per body within 0.05 ticks (so a true zero is stable) or
 * 2 %; values closer than that are one cluster for the modes too. */
#define ABS_TOL_PER_BODY_X100 5u

/* Cost per copy may differ between copy counts by the two points' spreads,
 * 0.10 ticks or 10 %: the cases differ by 30 % (an alignment) and
 * by 10x (a push/pop pair past its store buffer forwarding regime). */
/* A cluster of one or two samples is a pair of outliers, not a state the
 * core was in. */
#define MODE_MIN_COUNT 3u

#define LINEAR_ABS_X100 10u
#define LINEAR_REL_PERMILLE 100u

static struct stats_tolerance ensemble_tolerance(uint64_t iters)
{
    struct stats_tolerance tol = STATS_TOLERANCE_DEFAULT;
    tol.abs_tol_x100 = ABS_TOL_PER_BODY_X100 * iters;
    return tol;
}

/* t(U) must span STATS_MIN_STEPS steps of the time base: its median. (Not
 * the difference t(2U) - t(U): a body that costs nothing, calib/empty or an
 * eliminated move, would grow L to its bound for a difference of noise, a
 * million loops a body under QEMU's TCG; the reads' rounding is small against
 * U*L bodies anyway.) */
static void judge_length(const struct judge_samples *js, uint64_t *scratch, struct measurement *m)
{
    struct stats tu;
    stats_compute(js->t_u, js->n, scratch, &tu);
    stats_sample_length(js->resolution, 0, tu.median_low, m->loops, &m->length);
    stats_judge_length(&m->length, &m->judge);
}

/* Modes of the differences; after a rerun of this run and the one before
 * together, so a body that lands in another mode each run shows both.
 * Negative differences (clamped to 0) are left out: their own check counts
 * them, and as a "mode at 0" they would be counted twice. */
static void judge_modes(const struct judge_samples *js, uint64_t iters, uint64_t *scratch,
                        struct measurement *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; js->prior && i < js->prior_n; i++)
        scratch[n++] = js->prior[i];
    for (uint32_t i = 0; i < js->n; i++)
        if (js->t_2u[i] >= js->t_u[i])
            scratch[n++] = js->diffs[i];
    struct stats_mode_rule rule = STATS_MODE_RULE_DEFAULT;
    uint64_t close = stats_div_round(ABS_TOL_PER_BODY_X100 * iters, 100);
    rule.min_gap = close > js->resolution ? close : js->resolution;
    rule.min_count = MODE_MIN_COUNT;
    stats_modes(scratch, n, &rule, scratch, &m->modes);
    stats_judge_modes(&m->modes, iters, &m->judge);
}

/* The cost per copy at 2U and at 4U (t(U) - t(0) is shown beside them but
 * holds the loop's overlap with the body, which is not the body's cost). */
static void judge_linearity(const struct judge_samples *js, uint64_t *scratch, struct measurement *m)
{
    struct measure_linearity *lin = &m->lin;
    uint64_t iters = (uint64_t)m->unroll * m->loops;
    if (js->n4 < STATS_ENSEMBLE_MIN)
        return;
    uint64_t *d4 = scratch + MEASURE_SAMPLES_MAX;
    for (uint32_t k = 0; k < js->n4; k++) {
        uint64_t t2 = js->t_2u[k * MEASURE_4U_EVERY];
        d4[k] = js->t_4u[k] > t2 ? js->t_4u[k] - t2 : 0;
    }
    struct stats s4;
    stats_compute(d4, js->n4, scratch, &s4);
    struct stats_point p[2] = {
        stats_point_of(&m->diff, 2 * m->unroll, iters),
        stats_point_of(&s4, 4 * m->unroll, 2 * iters),
    };
    lin->have = true;
    lin->samples_4u = js->n4;
    lin->u4_x100 = p[1].value_x100;
    struct stats_tolerance tol = { .abs_tol_x100 = LINEAR_ABS_X100, .rel_tol_permille = LINEAR_REL_PERMILLE };
    struct stats_linearity l;
    stats_linear(p, 2, &tol, &l);
    stats_judge_linear(p, 2, &l, &m->judge);
}

/* The ADD chain timed beside the body against the rate found at start-up. */
static void judge_reference(const struct judge_samples *js, struct measurement *m)
{
    if (!m->ref_median_x100 || !m->ref_iters || js->startup_x100 <= 0)
        return;
    uint64_t run = stats_div_round(m->ref_median_x100, m->ref_iters);
    struct stats_rate rate;
    stats_rate_check(run > INT64_MAX ? INT64_MAX : (int64_t)run, js->startup_x100, 0, &rate);
    stats_judge_rate(&rate, &m->judge);
}

void judge_measurement(const struct judge_samples *js, uint64_t *scratch, struct measurement *m)
{
    uint64_t iters = (uint64_t)m->unroll * m->loops;
    struct stats_judgement *j = &m->judge;
    stats_judgement_start(j);
    struct stats_negatives neg;
    stats_negatives(js->t_u, js->t_2u, js->n, &neg);
    /* Said with the copy counts: in the marks U is the untrusted timer. */
    char what[64];
    ksnprintf(what, sizeof what, "fewer ticks with %u copies than with %u", (unsigned)(2 * m->unroll),
              (unsigned)m->unroll);
    stats_judge_negatives(&neg, what, j);
    struct stats_tolerance tol = ensemble_tolerance(iters);
    stats_judge_ensembles(js->diffs, js->n, MEASURE_ENSEMBLES, &tol, iters, scratch, NULL, j);
    judge_length(js, scratch, m);
    /* Too few or too short samples have clusters of rounding, not of the
     * body (one sample is a 10 % "mode" of 8): no modes, no linearity. */
    m->lin.u_x100 = m->empty_x100;
    m->lin.u2_x100 = m->value_x100;
    if (!(j->flags & (STATS_FLAG_FEW | STATS_FLAG_SHORT))) {
        judge_modes(js, iters, scratch, m);
        judge_linearity(js, scratch, m);
    }
    judge_reference(js, m);
    m->stable = j->verdict == STATS_VERDICT_STABLE;
}
