/* Exact floor square roots by the binary digit-by-digit method: one result
 * bit per step, only shifts, adds, subtracts and compares, so it is exact for
 * every input and needs neither an FPU nor a divider.
 * Invariant: `res` holds root_so_far * 2^(k+1) and `bit` is 4^k, so
 * res + bit is the square increment of setting the next root bit. */
#include "stats_wide.h"

uint64_t isqrt_u64(uint64_t v)
{
    uint64_t res = 0, bit = (uint64_t)1 << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= res + bit) {
            v -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return res;
}

struct wide isqrt_wide(struct wide v)
{
    struct wide res = { { 0 } };
    unsigned len = wide_bit_length(v);
    if (len == 0)
        return res;
    /* highest power of four not above v */
    struct wide bit = wide_shl(wide_from_u64(1), (len - 1) & ~1u);
    while (!wide_is_zero(bit)) {
        struct wide trial = wide_add(res, bit);
        if (wide_cmp(v, trial) >= 0) {
            v = wide_sub(v, trial);
            res = wide_add(wide_shr(res, 1), bit);
        } else {
            res = wide_shr(res, 1);
        }
        bit = wide_shr(bit, 2);
    }
    return res;
}
