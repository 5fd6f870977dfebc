/* Stability across ensembles, judged only with enough samples: a verdict
 * from fewer is "not judged", never "stable" (stats_checks.h). */
#include <stddef.h>
#include "stats_checks.h"

static void say_disagree(const struct stats_stability *st, uint32_t k, const struct stats_tolerance *tol,
                         uint64_t per, struct stats_judgement *j)
{
    char spread[24], allowed[24];
    stats_reason_x100(spread, sizeof spread, st->worst_spread_x100, per);
    stats_reason_x100(allowed, sizeof allowed, tol->abs_tol_x100, per);
    stats_judgement_raise(j, STATS_VERDICT_UNSTABLE, STATS_FLAG_ENSEMBLES,
                          "%u ensembles disagree: their %s differ by %s (allowed %s or %u.%u %%)",
                          (unsigned)k, st->worst == STATS_METRIC_MIN ? "minima" : "medians", spread,
                          allowed, (unsigned)(tol->rel_tol_permille / 10),
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
    struct stats parts[STATS_ENSEMBLES_MAX];
    uint32_t each = n / k;
    for (uint32_t e = 0; e < k; e++)
        stats_compute(diffs + e * each, each, scratch, &parts[e]);
    stats_stable(parts, k, tol, &st);
    if (out)
        *out = st;
    if (st.agree)
        return STATS_VERDICT_STABLE;
    say_disagree(&st, k, tol, per, j);
    return STATS_VERDICT_UNSTABLE;
}
