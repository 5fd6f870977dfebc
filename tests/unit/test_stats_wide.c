/* 256-bit arithmetic and exact integer square roots (kernel/stats_wide.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats_wide.h"

static struct wide pow2(unsigned e)
{
    return wide_shl(wide_from_u64(1), e);
}

static void assert_wide_equal(struct wide a, struct wide b)
{
    for (int i = 0; i < WIDE_LIMBS; i++)
        assert_int_equal(a.limb[i], b.limb[i]);
}

static void test_add_sub_carry_across_limbs(void **state)
{
    (void)state;
    /* (2^64 - 1) + 1 = 2^64 */
    assert_wide_equal(wide_add_u64(wide_from_u64(UINT64_MAX), 1), pow2(64));
    /* 2^192 - 1 = 2^192 - 1: borrow through five limbs, then add back */
    struct wide m = wide_sub(pow2(192), wide_from_u64(1));
    assert_int_equal(wide_bit_length(m), 192);
    assert_wide_equal(wide_add_u64(m, 1), pow2(192));
    /* 2^256 wraps to 0 */
    struct wide all = wide_sub(wide_from_u64(0), wide_from_u64(1));
    assert_int_equal(wide_bit_length(all), 256);
    assert_true(wide_is_zero(wide_add_u64(all, 1)));
}

static void test_mul(void **state)
{
    (void)state;
    /* (2^64-1)^2 = 2^128 - 2^65 + 1 */
    struct wide sq = wide_mul_u64(UINT64_MAX, UINT64_MAX);
    assert_wide_equal(sq, wide_add_u64(wide_sub(pow2(128), pow2(65)), 1));
    /* 2^100 * 2^120 = 2^220; 2^200 * 2^100 wraps to 0 */
    assert_wide_equal(wide_mul(pow2(100), pow2(120)), pow2(220));
    assert_true(wide_is_zero(wide_mul(pow2(200), pow2(100))));
    /* 40000 * 2^200 = 5^4 * 2^6 * 2^200 = 625 * 2^206 */
    assert_wide_equal(wide_mul_u32(pow2(200), 40000), wide_mul_u32(pow2(206), 625));
}

static void test_shifts_and_compare(void **state)
{
    (void)state;
    struct wide v = wide_from_u64(0x8000000000000001ULL);
    assert_wide_equal(wide_shr(wide_shl(v, 131), 131), v);
    assert_wide_equal(wide_shl(v, 1), wide_add_u64(pow2(64), 2));
    assert_wide_equal(wide_shr(v, 63), wide_from_u64(1));
    assert_true(wide_is_zero(wide_shl(v, 256)));
    assert_true(wide_is_zero(wide_shr(pow2(255), 256)));
    assert_int_equal(wide_cmp(pow2(64), wide_from_u64(UINT64_MAX)), 1);
    assert_int_equal(wide_cmp(wide_from_u64(UINT64_MAX), pow2(64)), -1);
    assert_int_equal(wide_cmp(pow2(200), pow2(200)), 0);
    assert_int_equal(wide_bit_length(wide_from_u64(0)), 0);
    assert_int_equal(wide_bit_length(wide_from_u64(1)), 1);
    assert_int_equal(wide_bit_length(pow2(255)), 256);
}

static void test_divmod(void **state)
{
    (void)state;
    uint64_t r;
    /* (2^128 - 1) / (2^64 - 1) = 2^64 + 1 exactly */
    struct wide q = wide_divmod_u64(wide_sub(pow2(128), wide_from_u64(1)), UINT64_MAX, &r);
    assert_wide_equal(q, wide_add_u64(pow2(64), 1));
    assert_int_equal(r, 0);
    /* divisor above 2^63 (the remainder's 65th bit is needed):
     * (2^128 - 1) / (2^63 + 1) = 36893488147419103228 = 2^65 - 4, rem 3 */
    q = wide_divmod_u64(wide_sub(pow2(128), wide_from_u64(1)), (1ULL << 63) + 1, &r);
    assert_wide_equal(q, wide_sub(pow2(65), wide_from_u64(4)));
    assert_int_equal(r, 3);
    /* 12345678901234567890123456789 / 10^10 = 1234567890123456789 rem 123456789 */
    struct wide a = wide_add_u64(wide_mul_u64(1234567890123456789ULL, 10000000000ULL), 123456789);
    q = wide_divmod_u64(a, 10000000000ULL, &r);
    assert_wide_equal(q, wide_from_u64(1234567890123456789ULL));
    assert_int_equal(r, 123456789);
    /* (2^200 + 12345) mod (2^64 - 59) = 52589369 (Python divmod), and q*d + r
     * gives the dividend back */
    a = wide_add_u64(pow2(200), 12345);
    q = wide_divmod_u64(a, UINT64_MAX - 58, &r);
    assert_int_equal(r, 52589369);
    assert_wide_equal(wide_add_u64(wide_mul(q, wide_from_u64(UINT64_MAX - 58)), r), a);
    /* 0 / d and d == 0 */
    assert_true(wide_is_zero(wide_divmod_u64(wide_from_u64(0), 7, &r)));
    assert_int_equal(r, 0);
    q = wide_divmod_u64(wide_from_u64(5), 0, &r);
    assert_int_equal(wide_bit_length(q), 256);
    assert_int_equal(r, 5);
}

static void test_div_round_half_up(void **state)
{
    (void)state;
    assert_wide_equal(wide_div_round_u64(wide_from_u64(5), 2), wide_from_u64(3));  /* 2.5 */
    assert_wide_equal(wide_div_round_u64(wide_from_u64(7), 3), wide_from_u64(2));  /* 2.33 */
    assert_wide_equal(wide_div_round_u64(wide_from_u64(8), 3), wide_from_u64(3));  /* 2.67 */
    assert_wide_equal(wide_div_round_u64(wide_from_u64(6), 4), wide_from_u64(2));  /* 1.5 */
    /* huge divisors, where 2 * remainder would overflow 64 bits:
     * (2^63 - 1) / (2^64 - 2) = exactly 0.5 -> 1 (half up);
     * 2^63 / (2^64 - 1) = 0.50000000000000000003 -> 1;
     * (2^63 - 1) / (2^64 - 1) = 0.49999999999999999997 -> 0 */
    assert_wide_equal(wide_div_round_u64(wide_from_u64((1ULL << 63) - 1), UINT64_MAX - 1),
                      wide_from_u64(1));
    assert_wide_equal(wide_div_round_u64(wide_from_u64(1ULL << 63), UINT64_MAX), wide_from_u64(1));
    assert_wide_equal(wide_div_round_u64(wide_from_u64((1ULL << 63) - 1), UINT64_MAX),
                      wide_from_u64(0));
}

static void test_to_u64_saturates(void **state)
{
    (void)state;
    bool sat = false;
    assert_int_equal(wide_to_u64_sat(wide_from_u64(UINT64_MAX), &sat), UINT64_MAX);
    assert_false(sat);
    assert_int_equal(wide_to_u64_sat(pow2(64), &sat), UINT64_MAX);
    assert_true(sat);
    assert_true(wide_fits_u64(wide_from_u64(UINT64_MAX)));
    assert_false(wide_fits_u64(pow2(64)));
}

static void test_isqrt_u64_squares_and_neighbours(void **state)
{
    (void)state;
    assert_int_equal(isqrt_u64(0), 0);
    assert_int_equal(isqrt_u64(1), 1);
    assert_int_equal(isqrt_u64(2), 1);
    assert_int_equal(isqrt_u64(3), 1);
    assert_int_equal(isqrt_u64(4), 2);
    assert_int_equal(isqrt_u64(15), 3);
    assert_int_equal(isqrt_u64(16), 4);
    assert_int_equal(isqrt_u64(17), 4);
    /* (2^32-1)^2 = 18446744065119617025 */
    assert_int_equal(isqrt_u64(18446744065119617025ULL), 4294967295ULL);
    assert_int_equal(isqrt_u64(18446744065119617024ULL), 4294967294ULL);
    assert_int_equal(isqrt_u64(18446744065119617026ULL), 4294967295ULL);
    assert_int_equal(isqrt_u64(UINT64_MAX), 4294967295ULL);
    assert_int_equal(isqrt_u64(1ULL << 62), 1ULL << 31);
    assert_int_equal(isqrt_u64((1ULL << 62) - 1), (1ULL << 31) - 1);
    /* every square k^2 and its neighbours for k up to 70000 */
    for (uint64_t k = 1; k < 70000; k++) {
        assert_int_equal(isqrt_u64(k * k), k);
        assert_int_equal(isqrt_u64(k * k - 1), k - 1);
        assert_int_equal(isqrt_u64(k * k + 2 * k), k); /* (k+1)^2 - 1 */
    }
}

static void test_isqrt_u64_property(void **state)
{
    (void)state;
    /* r = isqrt(v) iff r^2 <= v < (r+1)^2, checked in 256 bits */
    uint64_t v = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 20000; i++) {
        v = v * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t x = v >> (i % 64);
        uint64_t r = isqrt_u64(x);
        assert_true(wide_cmp(wide_mul_u64(r, r), wide_from_u64(x)) <= 0);
        assert_true(wide_cmp(wide_mul_u64(r + 1, r + 1), wide_from_u64(x)) > 0);
    }
}

static void test_isqrt_wide(void **state)
{
    (void)state;
    struct wide one = wide_from_u64(1);
    assert_true(wide_is_zero(isqrt_wide(wide_from_u64(0))));
    assert_wide_equal(isqrt_wide(one), one);
    assert_wide_equal(isqrt_wide(wide_from_u64(UINT64_MAX)), wide_from_u64(4294967295ULL));
    /* (2^64-1)^2 and neighbours */
    struct wide r64 = wide_from_u64(UINT64_MAX);
    struct wide sq = wide_mul_u64(UINT64_MAX, UINT64_MAX);
    assert_wide_equal(isqrt_wide(sq), r64);
    assert_wide_equal(isqrt_wide(wide_sub(sq, one)), wide_from_u64(UINT64_MAX - 1));
    assert_wide_equal(isqrt_wide(wide_add(sq, one)), r64);
    /* 2^128 - 1 -> 2^64 - 1; 2^128 -> 2^64 */
    assert_wide_equal(isqrt_wide(wide_sub(pow2(128), one)), r64);
    assert_wide_equal(isqrt_wide(pow2(128)), pow2(64));
    /* (2^128-1)^2 = 2^256 - 2^129 + 1 and neighbours; 2^256 - 1 */
    struct wide r128 = wide_sub(pow2(128), one);
    struct wide sq128 = wide_mul(r128, r128);
    assert_wide_equal(isqrt_wide(sq128), r128);
    assert_wide_equal(isqrt_wide(wide_sub(sq128, one)), wide_sub(r128, one));
    assert_wide_equal(isqrt_wide(wide_sub(wide_from_u64(0), one)), r128);
    /* odd bit lengths: 2^201 -> floor(2^100.5) = floor(sqrt(2) * 2^100):
     * checked by the bracket r^2 <= v < (r+1)^2 */
    struct wide v = pow2(201);
    struct wide r = isqrt_wide(v);
    assert_true(wide_cmp(wide_mul(r, r), v) <= 0);
    struct wide r1 = wide_add_u64(r, 1);
    assert_true(wide_cmp(wide_mul(r1, r1), v) > 0);
    assert_int_equal(wide_bit_length(r), 101);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub_carry_across_limbs),
        cmocka_unit_test(test_mul),
        cmocka_unit_test(test_shifts_and_compare),
        cmocka_unit_test(test_divmod),
        cmocka_unit_test(test_div_round_half_up),
        cmocka_unit_test(test_to_u64_saturates),
        cmocka_unit_test(test_isqrt_u64_squares_and_neighbours),
        cmocka_unit_test(test_isqrt_u64_property),
        cmocka_unit_test(test_isqrt_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
