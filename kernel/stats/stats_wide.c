/* 256-bit unsigned arithmetic: only what exact integer statistics need.
 * Speed is secondary (statistics run outside timed regions); clarity and
 * exactness on i586 without libgcc helpers beyond 64-bit shifts come first. */
#include <stddef.h>
#include "stats_wide.h"

struct wide wide_from_u64(uint64_t v)
{
    struct wide r = { { 0 } };
    r.limb[0] = (uint32_t)v;
    r.limb[1] = (uint32_t)(v >> 32);
    return r;
}

bool wide_is_zero(struct wide a)
{
    uint32_t any = 0;
    for (int i = 0; i < WIDE_LIMBS; i++)
        any |= a.limb[i];
    return any == 0;
}

int wide_cmp(struct wide a, struct wide b)
{
    for (int i = WIDE_LIMBS - 1; i >= 0; i--) {
        if (a.limb[i] != b.limb[i])
            return a.limb[i] < b.limb[i] ? -1 : 1;
    }
    return 0;
}

struct wide wide_add(struct wide a, struct wide b)
{
    struct wide r;
    uint64_t carry = 0;
    for (int i = 0; i < WIDE_LIMBS; i++) {
        uint64_t t = (uint64_t)a.limb[i] + b.limb[i] + carry;
        r.limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
    return r;
}

struct wide wide_add_u64(struct wide a, uint64_t b)
{
    return wide_add(a, wide_from_u64(b));
}

struct wide wide_sub(struct wide a, struct wide b)
{
    struct wide r;
    uint32_t borrow = 0;
    for (int i = 0; i < WIDE_LIMBS; i++) {
        uint64_t t = (uint64_t)a.limb[i] - b.limb[i] - borrow;
        r.limb[i] = (uint32_t)t;
        borrow = (uint32_t)(t >> 32) & 1; /* wrapped below zero */
    }
    return r;
}

struct wide wide_mul(struct wide a, struct wide b)
{
    struct wide r = { { 0 } };
    for (int i = 0; i < WIDE_LIMBS; i++) {
        if (a.limb[i] == 0)
            continue;
        uint64_t carry = 0;
        for (int j = 0; i + j < WIDE_LIMBS; j++) {
            /* 32x32 + 32 + 32 < 2^64: never overflows */
            uint64_t t = (uint64_t)a.limb[i] * b.limb[j] + r.limb[i + j] + carry;
            r.limb[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    return r;
}

struct wide wide_mul_u32(struct wide a, uint32_t m)
{
    struct wide r;
    uint64_t carry = 0;
    for (int i = 0; i < WIDE_LIMBS; i++) {
        uint64_t t = (uint64_t)a.limb[i] * m + carry;
        r.limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
    return r;
}

struct wide wide_mul_u64(uint64_t a, uint64_t b)
{
    /* Four 32x32 products: the hot path of the variance sum. */
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* middle column: each term < 2^32, the sum < 2^34 */
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    uint64_t high = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32); /* < 2^64 */
    struct wide r = { { 0 } };
    r.limb[0] = (uint32_t)p00;
    r.limb[1] = (uint32_t)mid;
    r.limb[2] = (uint32_t)high;
    r.limb[3] = (uint32_t)(high >> 32);
    return r;
}

struct wide wide_shl(struct wide a, unsigned bits)
{
    struct wide r = { { 0 } };
    if (bits >= WIDE_BITS)
        return r;
    unsigned limbs = bits / 32, s = bits % 32;
    for (int i = WIDE_LIMBS - 1; i >= (int)limbs; i--) {
        uint32_t v = a.limb[i - limbs] << s;
        if (s && i - (int)limbs - 1 >= 0)
            v |= a.limb[i - limbs - 1] >> (32 - s);
        r.limb[i] = v;
    }
    return r;
}

struct wide wide_shr(struct wide a, unsigned bits)
{
    struct wide r = { { 0 } };
    if (bits >= WIDE_BITS)
        return r;
    unsigned limbs = bits / 32, s = bits % 32;
    for (int i = 0; i + (int)limbs < WIDE_LIMBS; i++) {
        uint32_t v = a.limb[i + limbs] >> s;
        if (s && i + limbs + 1 < WIDE_LIMBS)
            v |= a.limb[i + limbs + 1] << (32 - s);
        r.limb[i] = v;
    }
    return r;
}

unsigned wide_bit_length(struct wide a)
{
    for (int i = WIDE_LIMBS - 1; i >= 0; i--) {
        uint32_t v = a.limb[i];
        if (v) {
            unsigned bits = 0;
            while (v) {
                bits++;
                v >>= 1;
            }
            return (unsigned)i * 32 + bits;
        }
    }
    return 0;
}

/* Schoolbook binary long division. The running remainder r is < d < 2^64
 * before each shift, so 2r + 1 fits in 65 bits: the bit shifted out is kept
 * as `carry`, and when it is set the true remainder exceeds d, so subtracting
 * d in wrapping 64-bit arithmetic yields the exact (smaller than d) result. */
struct wide wide_divmod_u64(struct wide a, uint64_t d, uint64_t *rem)
{
    struct wide q = { { 0 } };
    if (d == 0) {
        for (int i = 0; i < WIDE_LIMBS; i++)
            q.limb[i] = UINT32_MAX;
        if (rem)
            *rem = (uint64_t)a.limb[0] | ((uint64_t)a.limb[1] << 32);
        return q;
    }
    uint64_t r = 0;
    for (int bit = (int)wide_bit_length(a) - 1; bit >= 0; bit--) {
        uint32_t carry = (uint32_t)(r >> 63);
        r = (r << 1) | ((a.limb[bit / 32] >> (bit % 32)) & 1);
        if (carry || r >= d) {
            r -= d;
            q.limb[bit / 32] |= (uint32_t)1 << (bit % 32);
        }
    }
    if (rem)
        *rem = r;
    return q;
}

struct wide wide_div_round_u64(struct wide a, uint64_t d)
{
    uint64_t r;
    struct wide q = wide_divmod_u64(a, d, &r);
    /* half up: 2r >= d, written so that 2r cannot overflow */
    if (d != 0 && r >= d - r)
        q = wide_add_u64(q, 1);
    return q;
}

bool wide_fits_u64(struct wide a)
{
    for (int i = 2; i < WIDE_LIMBS; i++)
        if (a.limb[i])
            return false;
    return true;
}

uint64_t wide_to_u64_sat(struct wide a, bool *saturated)
{
    if (!wide_fits_u64(a)) {
        if (saturated)
            *saturated = true;
        return UINT64_MAX;
    }
    return (uint64_t)a.limb[0] | ((uint64_t)a.limb[1] << 32);
}
