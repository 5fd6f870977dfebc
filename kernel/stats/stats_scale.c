/* Per-iteration fixed point from totals: exact for every 64-bit input. */
#include <stddef.h>
#include "stats.h"
#include "stats_wide.h"

bool stats_per_iter_x100(uint64_t total, uint64_t iters, uint64_t *x100)
{
    if (iters == 0) {
        *x100 = 0;
        return false;
    }
    bool sat = false;
    /* total * 100 < 2^71: the 256-bit product and quotient are exact */
    *x100 = wide_to_u64_sat(wide_div_round_u64(wide_mul_u64(total, 100), iters), &sat);
    return !sat;
}

bool stats_per_iter_diff_x100(uint64_t a, uint64_t b, uint64_t iters, int64_t *x100)
{
    bool negative = a < b;
    uint64_t magnitude;
    /* Round the magnitude half up, then apply the sign: halves go away
     * from zero and -r is exactly the mirror of r. */
    bool ok = stats_per_iter_x100(negative ? b - a : a - b, iters, &magnitude);
    if (iters == 0) {
        *x100 = 0;
        return false;
    }
    if (!negative) {
        if (!ok || magnitude > (uint64_t)INT64_MAX) {
            *x100 = INT64_MAX;
            return false;
        }
        *x100 = (int64_t)magnitude;
        return true;
    }
    /* |INT64_MIN| = 2^63 = INT64_MAX + 1 */
    if (!ok || magnitude > (uint64_t)INT64_MAX + 1) {
        *x100 = INT64_MIN;
        return false;
    }
    *x100 = magnitude == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)magnitude;
    return true;
}

uint64_t stats_div_round(uint64_t num, uint64_t den)
{
    if (den == 0)
        return UINT64_MAX;
    /* The quotient is at most num, and +1 only when num/den has a remainder,
     * so the result always fits 64 bits. */
    return wide_to_u64_sat(wide_div_round_u64(wide_from_u64(num), den), NULL);
}
