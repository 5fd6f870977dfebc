#include "div64.h"

uint64_t u64_divmod(uint64_t n, uint64_t d, uint64_t *rem)
{
    if (d == 0) {
        if (rem)
            *rem = n;
        return UINT64_MAX;
    }
    uint64_t q = 0, r = 0;
    /* Fast path: both fit in 32 bits, one hardware divide. */
    if ((n >> 32) == 0) {
        uint32_t n32 = (uint32_t)n, d32 = (uint32_t)d;
        if ((d >> 32) != 0) {
            q = 0;
            r = n;
        } else {
            q = n32 / d32;
            r = n32 % d32;
        }
    } else {
        for (int bit = 63; bit >= 0; bit--) {
            /* r may reach d - 1 >= 2^63: the bit shifted out then means r >= d. */
            uint64_t carry = r >> 63;
            r = (r << 1) | ((n >> bit) & 1);
            if (carry || r >= d) {
                r -= d;
                q |= (uint64_t)1 << bit;
            }
        }
    }
    if (rem)
        *rem = r;
    return q;
}
