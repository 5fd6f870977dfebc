/* A fixed 256-bit unsigned integer for exact statistics.
 *
 * The i386 has no __int128 and a 486SX no FPU, yet sums of a few thousand
 * samples near 2^64 need about 76 bits and the variance numerator
 * n*sum(d^2) - (sum d)^2 up to 192 bits (scaled by 100^2 for two decimals:
 * 208 bits). 256 bits hold every intermediate of kernel/stats*.c for
 * n < 2^32, so no statistic ever loses a bit or wraps.
 *
 * Limbs are 32-bit because that is the natural multiply width on both i586
 * (MUL gives 32x32->64) and the host; little-endian limb order.
 * All operations are modulo 2^256 unless stated. */
#ifndef CK_STATS_WIDE_H
#define CK_STATS_WIDE_H
#include <stdbool.h>
#include <stdint.h>

#define WIDE_LIMBS 8
#define WIDE_BITS (32 * WIDE_LIMBS)

struct wide {
    uint32_t limb[WIDE_LIMBS]; /* limb[0] is the least significant */
};

struct wide wide_from_u64(uint64_t v);
bool wide_is_zero(struct wide a);
/* -1, 0 or 1 as a <, ==, > b. */
int wide_cmp(struct wide a, struct wide b);
struct wide wide_add(struct wide a, struct wide b);
struct wide wide_add_u64(struct wide a, uint64_t b);
/* a - b; callers ensure a >= b (otherwise the result wraps mod 2^256). */
struct wide wide_sub(struct wide a, struct wide b);
/* Low 256 bits of a * b. */
struct wide wide_mul(struct wide a, struct wide b);
struct wide wide_mul_u32(struct wide a, uint32_t m);
/* The full 128-bit product of two 64-bit values. */
struct wide wide_mul_u64(uint64_t a, uint64_t b);
struct wide wide_shl(struct wide a, unsigned bits);
struct wide wide_shr(struct wide a, unsigned bits);
/* Number of significant bits: 0 for 0, 256 when the top bit is set. */
unsigned wide_bit_length(struct wide a);
/* Quotient of a / d; remainder to *rem when rem is not NULL.
 * d == 0 gives an all-ones quotient and remainder a's low 64 bits. */
struct wide wide_divmod_u64(struct wide a, uint64_t d, uint64_t *rem);
/* a / d rounded half up: floor(a/d) + (remainder*2 >= d). d == 0 as above. */
struct wide wide_div_round_u64(struct wide a, uint64_t d);
/* True when a fits in 64 bits. */
bool wide_fits_u64(struct wide a);
/* The low 64 bits, or UINT64_MAX when a does not fit (then *saturated is set
 * to true when saturated is not NULL; it is never cleared). */
uint64_t wide_to_u64_sat(struct wide a, bool *saturated);

/* Floor square roots, exact for every input. */
uint64_t isqrt_u64(uint64_t v);
struct wide isqrt_wide(struct wide v);

#endif
