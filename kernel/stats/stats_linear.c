/* Is the cost per copy the same at every copy count (stats_checks.h)? The
 * n-versus-2n difference removes the loop's overhead only when it is. */
#include <stddef.h>
#include "lib/fmt.h"
#include "stats_checks.h"
#include "stats_wide.h"

static uint64_t magnitude(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* |a - b| exactly: the true difference of two int64 is below 2^64. */
static uint64_t distance(int64_t a, int64_t b)
{
    return a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

/* 1000 * the allowed difference: max(1000 (sa + sb), 1000 abs, rel max(|a|, |b|)). */
static struct wide allowed_1000(const struct stats_point *a, const struct stats_point *b,
                                const struct stats_tolerance *tol)
{
    struct wide spreads = wide_add_u64(wide_from_u64(a->spread_x100), b->spread_x100);
    struct wide best = wide_mul_u32(spreads, 1000);
    struct wide abs = wide_mul_u64(tol->abs_tol_x100, 1000);
    uint64_t big = magnitude(a->value_x100) > magnitude(b->value_x100) ? magnitude(a->value_x100)
                                                                       : magnitude(b->value_x100);
    struct wide rel = wide_mul_u64(big, tol->rel_tol_permille);
    if (wide_cmp(abs, best) > 0)
        best = abs;
    if (wide_cmp(rel, best) > 0)
        best = rel;
    return best;
}

struct stats_point stats_point_of(const struct stats *diff, uint32_t copies, uint64_t bodies)
{
    if (bodies == 0)
        bodies = 1;
    uint64_t median = stats_div_round(diff->median_x100, bodies);
    uint64_t iqr_x100 = diff->q3_x100 >= diff->q1_x100 ? diff->q3_x100 - diff->q1_x100 : 0;
    /* Half of it per body: one rounded division by 2 * bodies (no double
     * rounding). Past 2^63 bodies 2 * bodies has 65 bits and exceeds any
     * iqr: round(iqr / 2b) is then 1 exactly when iqr >= b. */
    uint64_t spread = bodies > UINT64_MAX / 2 ? (iqr_x100 >= bodies ? 1 : 0)
                                              : stats_div_round(iqr_x100, 2 * bodies);
    return (struct stats_point){
        .copies = copies,
        .value_x100 = median > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)median,
        .spread_x100 = spread,
    };
}

bool stats_linear(const struct stats_point *p, uint32_t k, const struct stats_tolerance *tol,
                  struct stats_linearity *out)
{
    if (!out)
        return false;
    *out = (struct stats_linearity){ .linear = false };
    if (!p || !tol || k < 2 || k > STATS_LINEAR_POINTS_MAX)
        return false;
    out->judged = out->linear = true;
    struct wide worst_gap = wide_from_u64(0), worst_allowed = wide_from_u64(1);
    bool first = true;
    for (uint32_t a = 0; a < k; a++)
        for (uint32_t b = a + 1; b < k; b++) {
            uint64_t gap = distance(p[a].value_x100, p[b].value_x100);
            struct wide gap_1000 = wide_mul_u64(gap, 1000);
            struct wide allowed = allowed_1000(&p[a], &p[b], tol);
            if (wide_cmp(gap_1000, allowed) > 0)
                out->linear = false;
            /* worse: larger gap / allowed, by cross-multiplying; a tie:
             * the larger gap */
            int c = wide_cmp(wide_mul(gap_1000, worst_allowed), wide_mul(worst_gap, allowed));
            if (first || c > 0 || (c == 0 && wide_cmp(gap_1000, worst_gap) > 0)) {
                first = false;
                worst_gap = gap_1000;
                worst_allowed = allowed;
                out->worst_a = a;
                out->worst_b = b;
                out->worst_gap_x100 = gap;
            }
        }
    return out->linear;
}

void stats_judge_linear(const struct stats_point *p, uint32_t k, const struct stats_linearity *lin,
                        struct stats_judgement *j)
{
    if (!lin->judged || lin->linear || !p || k > STATS_LINEAR_POINTS_MAX)
        return;
    char text[STATS_REASON_MAX];
    uint32_t len = (uint32_t)ksnprintf(text, sizeof text, "non-linear in the copy count:");
    for (uint32_t i = 0; i < k && len < sizeof text; i++) {
        char value[24];
        kfixed(value, sizeof value, p[i].value_x100, 2);
        len += (uint32_t)ksnprintf(text + len, sizeof text - len, "%s %s at %u%s", i ? "," : "", value,
                                   (unsigned)p[i].copies, i ? "" : " copies");
    }
    stats_judgement_raise(j, STATS_VERDICT_UNSTABLE, STATS_FLAG_NONLINEAR, "%s", text);
}
