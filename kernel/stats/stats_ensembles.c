/* Stability across ensembles, judged only with enough samples: a verdict
 * from fewer is "not judged", never "stable" (stats_checks.h).
 *
 * What is compared (issue 31): each ensemble's median with its confidence
 * interval, never its minimum. A result is a difference of two timed runs,
 * t(2U) - t(U), so its minimum is the body less the worst read noise of the
 * t(U) run, an extreme of the noise, not the body's best case; and a
 * negative difference (counted by its own check) is clamped to 0, so an
 * ensemble that holds one has a minimum of 0. On a quiet Zen 5 guest
 * (TSC steps of 21 ticks, reads through CPUID that exit to the hypervisor)
 * the minima of lat64/imul's three ensembles were 0 and 1.90, their medians
 * 1.76, 1.76 and 1.79: the old rule marked a textbook value unstable.
 *
 * The medians agree when they are within the tolerance (as before), or when
 * their intervals come within it: a stable body whose reads jitter has wide
 * intervals that overlap; a body that drifts or lands in another state in
 * another ensemble has medians further apart than the noise explains. The
 * interval is the distribution-free one of order statistics: for n samples
 * [X(j), X(k)] (1-based, sorted) with
 *     j = floor(0.50 n - 0.980 sqrt(n)),  k = ceil(0.50 n + 1 + 0.980 sqrt(n))
 * holds the median with 95 % confidence (J.-Y. Le Boudec, "Performance
 * Evaluation of Computer and Communication Systems", EPFL Press 2010,
 * Theorem 2.1 and Table 2.1; n >= 6: below that j and k are clamped to the
 * smallest and largest sample, a wider interval). Intervals of 95 % that
 * must overlap make a false alarm on a stable body rare; the check is
 * integer only, exact in 256 bits. */
#include <stddef.h>
#include "stats_checks.h"
#include "stats_wide.h"

/* ceil(98 * sqrt(n)): 0.980 sqrt(n) in hundredths, rounded away from the
 * median so the interval is never narrower than the book's. */
static uint64_t spread_x100(uint32_t n)
{
    uint64_t sq = 9604ull * n;
    uint64_t r = isqrt_u64(sq);
    return r * r == sq ? r : r + 1;
}

/* The 95 % interval of the median of sorted[0..n-1]. */
static void median_interval(const uint64_t *sorted, uint32_t n, uint64_t *lo, uint64_t *hi)
{
    uint64_t h = spread_x100(n), half = 50ull * n;
    uint64_t j = half > h ? (half - h) / 100 : 0;      /* floor */
    uint64_t k = (half + 100 + h + 99) / 100;          /* ceil */
    j = j < 1 ? 1 : j;
    k = k > n ? n : k;
    *lo = sorted[j - 1];
    *hi = sorted[k - 1];
}

struct ensemble_check {
    struct wide spread;     /* largest median - smallest, x100 */
    struct wide gap;        /* largest lower end - smallest upper end, x100; 0 when they overlap */
    struct wide allowed;    /* 1000 * max(abs, rel * largest median / 1000), x100 */
};

static struct wide x100(uint64_t v) { return wide_mul_u32(wide_from_u64(v), 100); }

static struct wide median_x100(const struct stats *st)
{
    return wide_mul_u32(wide_add_u64(wide_from_u64(st->median_low), st->median_high), 50);
}

static void say_disagree(const struct stats_stability *st, const struct ensemble_check *c, uint32_t k,
                         const struct stats_tolerance *tol, uint64_t per, struct stats_judgement *j)
{
    char spread[24], gap[24], allowed[24];
    stats_reason_x100(spread, sizeof spread, st->median_spread_x100, per);
    stats_reason_x100(gap, sizeof gap, wide_to_u64_sat(c->gap, NULL), per);
    stats_reason_x100(allowed, sizeof allowed, tol->abs_tol_x100, per);
    stats_judgement_raise(j, STATS_VERDICT_UNSTABLE, STATS_FLAG_ENSEMBLES,
                          "%u ensembles disagree: their medians differ by %s, their 95 %% intervals "
                          "are %s apart (allowed %s or %u.%u %%)",
                          (unsigned)k, spread, gap, allowed, (unsigned)(tol->rel_tol_permille / 10),
                          (unsigned)(tol->rel_tol_permille % 10));
}

enum stats_verdict stats_judge_ensembles(const uint64_t *diffs, uint32_t n, uint32_t k,
                                         const struct stats_tolerance *tol, uint64_t per,
                                         uint64_t *scratch, struct stats_stability *out,
                                         struct stats_judgement *j)
{
    struct stats_stability st = { .agree = false };
    if (out)
        *out = st;
    if (k == 0 || k > STATS_ENSEMBLES_MAX || !diffs || !tol || !scratch) {
        stats_judgement_raise(j, STATS_VERDICT_NOT_JUDGED, STATS_FLAG_FEW,
                              "%u ensembles: 1 to %u can be compared", (unsigned)k,
                              (unsigned)STATS_ENSEMBLES_MAX);
        return STATS_VERDICT_NOT_JUDGED;
    }
    if (n / k < STATS_ENSEMBLE_MIN) {
        stats_judgement_raise(j, STATS_VERDICT_NOT_JUDGED, STATS_FLAG_FEW,
                              "%u samples: judging stability needs at least %u (%u ensembles of %u)",
                              (unsigned)n, (unsigned)(k * STATS_ENSEMBLE_MIN), (unsigned)k,
                              (unsigned)STATS_ENSEMBLE_MIN);
        return STATS_VERDICT_NOT_JUDGED;
    }
    uint32_t each = n / k;
    struct wide med_lo = { { 0 } }, med_hi = { { 0 } }, lo_max = { { 0 } }, hi_min = { { 0 } };
    uint64_t min_lo = UINT64_MAX, min_hi = 0;
    for (uint32_t e = 0; e < k; e++) {
        struct stats part;
        uint64_t lo, hi;
        stats_compute(diffs + e * each, each, scratch, &part); /* scratch: the ensemble, sorted */
        median_interval(scratch, each, &lo, &hi);
        struct wide med = median_x100(&part);
        if (e == 0 || wide_cmp(med, med_lo) < 0)
            med_lo = med;
        if (e == 0 || wide_cmp(med, med_hi) > 0)
            med_hi = med;
        if (e == 0 || wide_cmp(x100(lo), lo_max) > 0)
            lo_max = x100(lo);
        if (e == 0 || wide_cmp(x100(hi), hi_min) < 0)
            hi_min = x100(hi);
        min_lo = part.min < min_lo ? part.min : min_lo;
        min_hi = part.min > min_hi ? part.min : min_hi;
    }
    struct ensemble_check c;
    c.spread = wide_sub(med_hi, med_lo);
    c.gap = wide_cmp(lo_max, hi_min) > 0 ? wide_sub(lo_max, hi_min) : wide_from_u64(0);
    struct wide abs_1000 = wide_mul_u32(wide_from_u64(tol->abs_tol_x100), 1000);
    struct wide rel_1000 = wide_mul_u32(med_hi, tol->rel_tol_permille);
    c.allowed = wide_cmp(abs_1000, rel_1000) >= 0 ? abs_1000 : rel_1000;
    bool medians_close = wide_cmp(wide_mul_u32(c.spread, 1000), c.allowed) <= 0;
    bool intervals_close = wide_cmp(wide_mul_u32(c.gap, 1000), c.allowed) <= 0;

    st.agree = st.median_agree = medians_close || intervals_close;
    st.min_agree = true; /* not compared: an extreme of the read noise (above) */
    st.min_spread_x100 = wide_to_u64_sat(x100(min_hi - min_lo), NULL);
    st.median_spread_x100 = wide_to_u64_sat(c.spread, NULL);
    st.worst = STATS_METRIC_MEDIAN;
    st.worst_spread_x100 = st.median_spread_x100;
    if (out)
        *out = st;
    if (st.agree)
        return STATS_VERDICT_STABLE;
    say_disagree(&st, &c, k, tol, per, j);
    return STATS_VERDICT_UNSTABLE;
}
