/* Negative differences: samples where the longer run took less time than
 * the shorter one (stats_checks.h says why they matter). */
#include <stddef.h>
#include "stats_checks.h"

/* Sorted, the signed differences are neg negative ones then n - neg others.
 * Odd n: the median is element n/2, negative when neg > n/2. Even n: the
 * mean of elements n/2-1 and n/2; both negative when neg > n/2, the first
 * not when neg < n/2; at neg == n/2 they are the negative closest to zero
 * and the smallest non-negative one, so compare those two magnitudes. */
void stats_negatives(const uint64_t *earlier, const uint64_t *later, uint32_t n,
                     struct stats_negatives *out)
{
    *out = (struct stats_negatives){ 0 };
    if (!earlier || !later || n == 0)
        return;
    uint64_t closest_negative = UINT64_MAX, smallest_other = UINT64_MAX;
    for (uint32_t s = 0; s < n; s++) {
        if (later[s] < earlier[s]) {
            out->negative++;
            if (earlier[s] - later[s] < closest_negative)
                closest_negative = earlier[s] - later[s];
        } else if (later[s] - earlier[s] < smallest_other) {
            smallest_other = later[s] - earlier[s];
        }
    }
    out->n = n;
    uint32_t half = n / 2;
    if (n % 2)
        out->median_negative = out->negative > half;
    else
        out->median_negative = out->negative > half ||
                               (out->negative == half && closest_negative > smallest_other);
}

void stats_judge_negatives(const struct stats_negatives *neg, const char *what,
                           struct stats_judgement *j)
{
    if (!what)
        what = "t(2U) < t(U)";
    /* 64-bit products: n < 2^32, so neither side wraps */
    if ((uint64_t)neg->negative * 1000 > (uint64_t)STATS_NEGATIVE_MAX_PERMILLE * neg->n)
        stats_judgement_raise(j, STATS_VERDICT_UNSTABLE, STATS_FLAG_NEGATIVES,
                              "%u of %u samples had %s", (unsigned)neg->negative, (unsigned)neg->n, what);
    if (neg->median_negative)
        stats_judgement_raise(j, STATS_VERDICT_UNSTABLE, STATS_FLAG_CLAMPED,
                              "the median difference is negative, shown as 0");
}
