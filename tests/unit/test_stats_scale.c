/* Per-iteration fixed point: stats_per_iter_x100, _diff_x100, stats_div_round. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats.h"

static void test_per_iter_rounding(void **state)
{
    (void)state;
    uint64_t x;
    assert_true(stats_per_iter_x100(300, 100, &x));
    assert_int_equal(x, 300);                 /* 3.00 */
    assert_true(stats_per_iter_x100(1, 200, &x));
    assert_int_equal(x, 1);                   /* 0.005 -> 0.01 (half up) */
    assert_true(stats_per_iter_x100(1, 201, &x));
    assert_int_equal(x, 0);                   /* 0.004975 -> 0.00 */
    assert_true(stats_per_iter_x100(2, 3, &x));
    assert_int_equal(x, 67);                  /* 0.6667 */
    assert_true(stats_per_iter_x100(0, 5, &x));
    assert_int_equal(x, 0);
}

static void test_per_iter_huge_totals(void **state)
{
    (void)state;
    uint64_t x;
    /* R = 2^64-1: R*100/100 = R exactly, although R*100 needs 71 bits */
    assert_true(stats_per_iter_x100(UINT64_MAX, 100, &x));
    assert_int_equal(x, UINT64_MAX);
    /* R*100/1000 = 1844674407370955161.5 -> ...162 */
    assert_true(stats_per_iter_x100(UINT64_MAX, 1000, &x));
    assert_int_equal(x, 1844674407370955162ULL);
    /* R/R = 1.00; iters above 2^63 (2*remainder would overflow):
     * 100 * 2^63 / (2^64 - 1) = 50.0000...0000000003 -> 50 */
    assert_true(stats_per_iter_x100(UINT64_MAX, UINT64_MAX, &x));
    assert_int_equal(x, 100);
    assert_true(stats_per_iter_x100(1ULL << 63, UINT64_MAX, &x));
    assert_int_equal(x, 50);
    /* R*100/3 = 614891469123651720500: over 64 bits -> clamped, false */
    assert_false(stats_per_iter_x100(UINT64_MAX, 3, &x));
    assert_int_equal(x, UINT64_MAX);
    assert_false(stats_per_iter_x100(5, 0, &x));
    assert_int_equal(x, 0);
}

static void test_diff_signs_and_half_away_from_zero(void **state)
{
    (void)state;
    int64_t x;
    /* (101 - 100) / 8 = 0.125 -> 0.13; (100 - 101) / 8 -> -0.13 */
    assert_true(stats_per_iter_diff_x100(101, 100, 8, &x));
    assert_int_equal(x, 13);
    assert_true(stats_per_iter_diff_x100(100, 101, 8, &x));
    assert_int_equal(x, -13);
    /* (1000 - 1124) / 1000 = -0.124 -> -0.12; -0.125 -> -0.13 */
    assert_true(stats_per_iter_diff_x100(1000, 1124, 1000, &x));
    assert_int_equal(x, -12);
    assert_true(stats_per_iter_diff_x100(1000, 1125, 1000, &x));
    assert_int_equal(x, -13);
    assert_true(stats_per_iter_diff_x100(7, 7, 3, &x));
    assert_int_equal(x, 0);
    /* overhead removal: t(2U) - t(U) = 2200 - 1000 over U*L = 400 -> 3.00 */
    assert_true(stats_per_iter_diff_x100(2200, 1000, 400, &x));
    assert_int_equal(x, 300);
}

static void test_diff_extremes(void **state)
{
    (void)state;
    int64_t x;
    /* 0 - R over 1000 = -1844674407370955161.5 -> -...162 */
    assert_true(stats_per_iter_diff_x100(0, UINT64_MAX, 1000, &x));
    assert_int_equal(x, -1844674407370955162LL);
    /* -(2^63) fits int64 exactly: 0 - 2^63 over 100 */
    assert_true(stats_per_iter_diff_x100(0, 1ULL << 63, 100, &x));
    assert_int_equal(x, INT64_MIN);
    /* +2^63 does not */
    assert_false(stats_per_iter_diff_x100(1ULL << 63, 0, 100, &x));
    assert_int_equal(x, INT64_MAX);
    /* 2^63 - 1 does */
    assert_true(stats_per_iter_diff_x100((1ULL << 63) - 1, 0, 100, &x));
    assert_int_equal(x, INT64_MAX);
    /* -R over 100 -> -R: below INT64_MIN */
    assert_false(stats_per_iter_diff_x100(0, UINT64_MAX, 100, &x));
    assert_int_equal(x, INT64_MIN);
    assert_false(stats_per_iter_diff_x100(1, 0, 0, &x));
    assert_int_equal(x, 0);
}

static void test_div_round(void **state)
{
    (void)state;
    assert_int_equal(stats_div_round(5, 2), 3);   /* 2.5 */
    assert_int_equal(stats_div_round(7, 3), 2);   /* 2.33 */
    assert_int_equal(stats_div_round(0, 3), 0);
    /* median_x100 30050 (300.50 ticks per sample) over 100 iterations: 3.005 -> 3.01 */
    assert_int_equal(stats_div_round(30050, 100), 301);
    assert_int_equal(stats_div_round(UINT64_MAX, 1), UINT64_MAX);
    assert_int_equal(stats_div_round(UINT64_MAX, 2), 1ULL << 63); /* ...7.5 -> up */
    assert_int_equal(stats_div_round(UINT64_MAX, UINT64_MAX), 1);
    assert_int_equal(stats_div_round(1, 0), UINT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_iter_rounding),
        cmocka_unit_test(test_per_iter_huge_totals),
        cmocka_unit_test(test_diff_signs_and_half_away_from_zero),
        cmocka_unit_test(test_diff_extremes),
        cmocka_unit_test(test_div_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
