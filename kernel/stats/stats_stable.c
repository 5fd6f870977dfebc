/* Do several ensembles of the same measurement agree? Definition in stats.h.
 * All comparisons are exact in 256-bit x100 units: minima as min*100 and
 * medians as (median_low + median_high)*50, never rounded or clamped. */
#include <stddef.h>
#include "stats.h"
#include "stats_wide.h"

struct metric_check {
    struct wide spread;       /* x100 */
    struct wide allowed_1000; /* 1000 * allowed spread, x100 */
    bool agree;
};

static struct wide min_x100(const struct stats *st)
{
    return wide_mul_u32(wide_from_u64(st->min), 100);
}

static struct wide median_x100(const struct stats *st)
{
    return wide_mul_u32(wide_add_u64(wide_from_u64(st->median_low), st->median_high), 50);
}

static struct metric_check check_metric(const struct stats *ens, uint32_t k,
                                        struct wide (*value)(const struct stats *),
                                        const struct stats_tolerance *tol)
{
    struct wide lo = value(&ens[0]), hi = lo;
    for (uint32_t i = 1; i < k; i++) {
        struct wide v = value(&ens[i]);
        if (wide_cmp(v, lo) < 0)
            lo = v;
        if (wide_cmp(v, hi) > 0)
            hi = v;
    }
    struct metric_check c;
    c.spread = wide_sub(hi, lo);
    /* 1000 * max(abs, rel * hi / 1000) = max(1000 * abs, rel * hi) */
    struct wide abs_1000 = wide_mul_u32(wide_from_u64(tol->abs_tol_x100), 1000);
    struct wide rel_1000 = wide_mul_u32(hi, tol->rel_tol_permille);
    c.allowed_1000 = wide_cmp(abs_1000, rel_1000) >= 0 ? abs_1000 : rel_1000;
    c.agree = wide_cmp(wide_mul_u32(c.spread, 1000), c.allowed_1000) <= 0;
    return c;
}

bool stats_stable(const struct stats *ensembles, uint32_t k,
                  const struct stats_tolerance *tol, struct stats_stability *out)
{
    if (!out)
        return false;
    *out = (struct stats_stability){ .agree = false };
    if (!ensembles || !tol || k == 0)
        return false;

    struct metric_check mn = check_metric(ensembles, k, min_x100, tol);
    struct metric_check md = check_metric(ensembles, k, median_x100, tol);
    out->min_agree = mn.agree;
    out->median_agree = md.agree;
    out->agree = mn.agree && md.agree;
    out->min_spread_x100 = wide_to_u64_sat(mn.spread, NULL);
    out->median_spread_x100 = wide_to_u64_sat(md.spread, NULL);

    /* Worse = larger spread / allowed; compared by cross-multiplying
     * (spread < 2^72 and allowed_1000 < 2^114, so the products fit).
     * A tie names the minimum. */
    struct wide min_ratio = wide_mul(mn.spread, md.allowed_1000);
    struct wide median_ratio = wide_mul(md.spread, mn.allowed_1000);
    if (wide_cmp(min_ratio, median_ratio) >= 0) {
        out->worst = STATS_METRIC_MIN;
        out->worst_spread_x100 = out->min_spread_x100;
    } else {
        out->worst = STATS_METRIC_MEDIAN;
        out->worst_spread_x100 = out->median_spread_x100;
    }
    return out->agree;
}
