/* stats_compute on hand-computed sample sets. Every expected number has its
 * arithmetic beside it; x100 values are value*100 rounded half up. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats.h"

#define N_OF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static uint64_t scratch[20000];
static uint64_t big[20000];

static struct stats compute(const uint64_t *s, uint32_t n)
{
    struct stats st;
    assert_true(stats_compute(s, n, scratch, &st));
    return st;
}

static void test_odd_count_every_statistic(void **state)
{
    (void)state;
    static const uint64_t s[] = { 5, 1, 4, 2, 10, 3, 2 };
    struct stats st = compute(s, N_OF(s));
    /* sorted: 1 2 2 3 4 5 10 */
    for (uint32_t i = 0; i < 7; i++)
        assert_int_equal(scratch[i], ((uint64_t[]){ 1, 2, 2, 3, 4, 5, 10 })[i]);
    assert_int_equal(st.n, 7);
    assert_int_equal(st.min, 1);
    assert_int_equal(st.max, 10);
    assert_int_equal(st.median_x100, 300);  /* x[3] = 3 */
    assert_int_equal(st.median_low, 3);
    assert_int_equal(st.median_high, 3);
    assert_int_equal(st.mode, 2);           /* 2 appears twice */
    assert_int_equal(st.mode_count, 2);
    assert_int_equal(st.mean_x100, 386);    /* 27/7 = 3.857.. */
    /* f = floor(7/5) = 1: x[1..5] = 2 2 3 4 5, 16/5 = 3.20 */
    assert_int_equal(st.trim_first, 1);
    assert_int_equal(st.trim_count, 5);
    assert_int_equal(st.trimmed_mean_x100, 320);
    /* sum x^2 = 1+4+4+9+16+25+100 = 159; var = 159/7 - (27/7)^2 = 384/49;
     * sigma = sqrt(384)/7 = 19.5959/7 = 2.7994 -> 280 */
    assert_int_equal(st.stddev_x100, 280);
    /* halves 1 2 2 | 4 5 10: q1 = 2, q3 = 5, iqr 3, fences -2.5 and 9.5:
     * 10 is a high outlier */
    assert_int_equal(st.q1_x100, 200);
    assert_int_equal(st.q3_x100, 500);
    assert_int_equal(st.outliers, 1);
    assert_int_equal(st.outliers_high, 1);
    assert_int_equal(st.outliers_low, 0);
    assert_int_equal(st.saturated, 0);
}

static void test_even_count_median_and_mode_tie(void **state)
{
    (void)state;
    static const uint64_t s[] = { 7, 3, 8, 3, 7, 1 };
    struct stats st = compute(s, N_OF(s));
    /* sorted 1 3 3 7 7 8 */
    assert_int_equal(st.median_x100, 500); /* (3+7)/2 = 5 */
    assert_int_equal(st.median_low, 3);
    assert_int_equal(st.median_high, 7);
    /* 3 and 7 both twice: the smaller wins */
    assert_int_equal(st.mode, 3);
    assert_int_equal(st.mode_count, 2);
    assert_int_equal(st.mean_x100, 483); /* 29/6 = 4.8333 */
    /* f = 1: x[1..4] = 3 3 7 7 -> 5.00 */
    assert_int_equal(st.trimmed_mean_x100, 500);
    /* d = x-1: 0 2 2 6 6 7, sum 23, sum d^2 = 129; N = 6*129 - 529 = 245;
     * sigma = sqrt(245)/6 = 15.6525/6 = 2.60875 -> 261 */
    assert_int_equal(st.stddev_x100, 261);
    /* halves 1 3 3 | 7 7 8: q1 3, q3 7, fences -3 and 13: none */
    assert_int_equal(st.q1_x100, 300);
    assert_int_equal(st.q3_x100, 700);
    assert_int_equal(st.outliers, 0);
}

static void test_even_median_half_value_and_mode_tie_all_distinct(void **state)
{
    (void)state;
    static const uint64_t s[] = { 2, 1 };
    struct stats st = compute(s, N_OF(s));
    assert_int_equal(st.median_x100, 150); /* (1+2)/2 = 1.5 */
    assert_int_equal(st.mode, 1);          /* all once: the smallest */
    assert_int_equal(st.mode_count, 1);
    assert_int_equal(st.mean_x100, 150);
    assert_int_equal(st.stddev_x100, 50);  /* population: |x - 1.5| = 0.5 */
    /* halves {1} {2}: q1 1, q3 2, fences -0.5 and 3.5 */
    assert_int_equal(st.q1_x100, 100);
    assert_int_equal(st.q3_x100, 200);
    assert_int_equal(st.outliers, 0);
}

static void test_mode_tie_larger_run_first_in_input(void **state)
{
    (void)state;
    /* 9 appears 3 times, 4 appears 3 times, 1 once: tie -> 4 */
    static const uint64_t s[] = { 9, 9, 9, 1, 4, 4, 4 };
    struct stats st = compute(s, N_OF(s));
    assert_int_equal(st.mode, 4);
    assert_int_equal(st.mode_count, 3);
    /* and a strict winner that is the largest value */
    static const uint64_t t[] = { 9, 9, 9, 1, 4, 4 };
    st = compute(t, N_OF(t));
    assert_int_equal(st.mode, 9);
    assert_int_equal(st.mode_count, 3);
}

static void test_all_equal(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < 1000; i++)
        big[i] = 42;
    struct stats st = compute(big, 1000);
    assert_int_equal(st.min, 42);
    assert_int_equal(st.max, 42);
    assert_int_equal(st.median_x100, 4200);
    assert_int_equal(st.mode, 42);
    assert_int_equal(st.mode_count, 1000);
    assert_int_equal(st.mean_x100, 4200);
    assert_int_equal(st.trim_first, 200);
    assert_int_equal(st.trim_count, 600);
    assert_int_equal(st.trimmed_mean_x100, 4200);
    assert_int_equal(st.stddev_x100, 0);
    assert_int_equal(st.q1_x100, 4200);
    assert_int_equal(st.q3_x100, 4200);
    assert_int_equal(st.outliers, 0);
}

static void test_single_sample(void **state)
{
    (void)state;
    static const uint64_t s[] = { 17 };
    struct stats st = compute(s, 1);
    assert_int_equal(st.n, 1);
    assert_int_equal(st.min, 17);
    assert_int_equal(st.max, 17);
    assert_int_equal(st.median_x100, 1700);
    assert_int_equal(st.mode, 17);
    assert_int_equal(st.mode_count, 1);
    assert_int_equal(st.mean_x100, 1700);
    assert_int_equal(st.trim_first, 0);
    assert_int_equal(st.trim_count, 1);
    assert_int_equal(st.trimmed_mean_x100, 1700);
    assert_int_equal(st.stddev_x100, 0);
    assert_int_equal(st.q1_x100, 1700);
    assert_int_equal(st.q3_x100, 1700);
    assert_int_equal(st.outliers, 0);
}

static void test_rejects_empty_and_null(void **state)
{
    (void)state;
    static const uint64_t s[] = { 1 };
    struct stats st;
    st.n = 99;
    assert_false(stats_compute(s, 0, scratch, &st));
    assert_int_equal(st.n, 0);
    assert_false(stats_compute(NULL, 1, scratch, &st));
    assert_false(stats_compute(s, 1, NULL, &st));
    assert_false(stats_compute(s, 1, scratch, NULL));
}

static void test_sorts_in_place_when_scratch_is_samples(void **state)
{
    (void)state;
    uint64_t s[] = { 3, UINT64_MAX, 0, 3, 1 };
    struct stats st;
    assert_true(stats_compute(s, 5, s, &st));
    assert_int_equal(s[0], 0);
    assert_int_equal(s[1], 1);
    assert_int_equal(s[2], 3);
    assert_int_equal(s[3], 3);
    assert_int_equal(s[4], UINT64_MAX);
    assert_int_equal(st.median_x100, 300);
}

static void test_sort_large_reverse_and_duplicates(void **state)
{
    (void)state;
    /* 3000 values, descending with every value twice */
    for (uint32_t i = 0; i < 3000; i++)
        big[i] = (3000 - i) / 2;
    stats_sort(big, 3000);
    for (uint32_t i = 0; i < 3000; i++)
        assert_int_equal(big[i], (i + 1) / 2);
}

static void test_mean_rounding_half_up(void **state)
{
    (void)state;
    /* 1/8 = 0.125 -> 0.13 (half up) */
    static const uint64_t a[] = { 1, 0, 0, 0, 0, 0, 0, 0 };
    assert_int_equal(compute(a, 8).mean_x100, 13);
    /* 3/8 = 0.375 -> 0.38 */
    static const uint64_t b[] = { 1, 1, 1, 0, 0, 0, 0, 0 };
    assert_int_equal(compute(b, 8).mean_x100, 38);
    /* 1/3 = 0.333 -> 0.33; 2/3 = 0.667 -> 0.67 */
    static const uint64_t c[] = { 1, 0, 0 };
    assert_int_equal(compute(c, 3).mean_x100, 33);
    static const uint64_t d[] = { 1, 1, 0 };
    assert_int_equal(compute(d, 3).mean_x100, 67);
    /* 1/200 = 0.005 -> 0.01; 1/201 = 0.004975 -> 0.00 */
    for (uint32_t i = 0; i < 201; i++)
        big[i] = i == 0;
    assert_int_equal(compute(big, 200).mean_x100, 1);
    for (uint32_t i = 0; i < 201; i++)
        big[i] = i == 0;
    assert_int_equal(compute(big, 201).mean_x100, 0);
}

static void test_stddev_rounding(void **state)
{
    (void)state;
    /* {0, 1, 1, 1}: mean 0.75, var = 0.75 - 0.5625 = 0.1875,
     * sigma = 0.4330 -> 43 */
    static const uint64_t a[] = { 0, 1, 1, 1 };
    assert_int_equal(compute(a, 4).stddev_x100, 43);
    /* {0, 0, 0, 1, 1}: mean 0.4, var 0.24, sigma 0.4899 -> 49 */
    static const uint64_t b[] = { 0, 1, 0, 1, 0 };
    assert_int_equal(compute(b, 5).stddev_x100, 49);
    /* {0, 2^32}: sigma = 2^31 exactly -> 214748364800 */
    static const uint64_t c[] = { 0, (uint64_t)1 << 32 };
    assert_int_equal(compute(c, 2).stddev_x100, 214748364800ULL);
    /* {0, 1}: sigma exactly 0.5 -> 50 (no rounding slack either way) */
    static const uint64_t d[] = { 0, 1 };
    assert_int_equal(compute(d, 2).stddev_x100, 50);
}

static void test_trimmed_mean_indices(void **state)
{
    (void)state;
    /* n = 10: f = 2, x[2..7] kept: 2+3+...+7 = 27, /6 = 4.50 */
    static const uint64_t s[] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
    struct stats st = compute(s, 10);
    assert_int_equal(st.trim_first, 2);
    assert_int_equal(st.trim_count, 6);
    assert_int_equal(st.trimmed_mean_x100, 450);
    /* n = 4: nothing dropped; the extreme value counts: (0+0+0+100)/4 = 25 */
    static const uint64_t t[] = { 0, 0, 100, 0 };
    st = compute(t, 4);
    assert_int_equal(st.trim_first, 0);
    assert_int_equal(st.trim_count, 4);
    assert_int_equal(st.trimmed_mean_x100, 2500);
    /* n = 5: f = 1, the 1000 is dropped: (1+2+3)/3 = 2.00 */
    static const uint64_t u[] = { 1000, 1, 2, 3, 0 };
    st = compute(u, 5);
    assert_int_equal(st.trim_first, 1);
    assert_int_equal(st.trim_count, 3);
    assert_int_equal(st.trimmed_mean_x100, 200);
}

static void test_outliers_with_iqr_floor(void **state)
{
    (void)state;
    /* 98 99 100x16 101 102 (n = 20): halves are x[0..9] and x[10..19];
     * q1 = (x[4]+x[5])/2 = 100, q3 = (x[14]+x[15])/2 = 100; iqr 0 -> 1,
     * fences 98.5 and 101.5: 98 low, 102 high; 99 and 101 are not. */
    uint64_t s[20];
    for (uint32_t i = 0; i < 20; i++)
        s[i] = 100;
    s[3] = 98;
    s[7] = 99;
    s[11] = 101;
    s[19] = 102;
    struct stats st = compute(s, 20);
    assert_int_equal(st.q1_x100, 10000);
    assert_int_equal(st.q3_x100, 10000);
    assert_int_equal(st.outliers_low, 1);
    assert_int_equal(st.outliers_high, 1);
    assert_int_equal(st.outliers, 2);
}

static void test_outliers_tukey_boundary(void **state)
{
    (void)state;
    /* 10 20 30 40 | 50 60 70 80 with x[7] varied: n = 8, halves of 4:
     * q1 = (20+30)/2 = 25, q3 = (60+70)/2 = 65, iqr 40, fences -35 and 125.
     * A value of exactly 125 is inside; 126 is out. */
    uint64_t s[] = { 10, 20, 30, 40, 50, 60, 70, 125 };
    struct stats st = compute(s, 8);
    assert_int_equal(st.q1_x100, 2500);
    assert_int_equal(st.q3_x100, 6500);
    assert_int_equal(st.outliers, 0);
    s[7] = 126;
    st = compute(s, 8);
    assert_int_equal(st.outliers_high, 1);
    /* low side: six 1000s and a 0 (n = 7): halves x[0..2] = 0 1000 1000
     * -> q1 1000; q3 1000; iqr 0 -> 1;
     * low fence 998.5: 0 is a low outlier */
    static const uint64_t t[] = { 1000, 1000, 0, 1000, 1000, 1000, 1000 };
    st = compute(t, 7);
    assert_int_equal(st.outliers_low, 1);
    assert_int_equal(st.outliers_high, 0);
}

static void test_extreme_samples_near_u64_max(void **state)
{
    (void)state;
    static const uint64_t s[] = { UINT64_MAX, UINT64_MAX - 2, UINT64_MAX - 1 };
    struct stats st = compute(s, 3);
    assert_int_equal(st.min, UINT64_MAX - 2);
    assert_int_equal(st.max, UINT64_MAX);
    assert_int_equal(st.median_low, UINT64_MAX - 1);
    assert_int_equal(st.mode, UINT64_MAX - 2); /* all once: smallest */
    /* d = 0 1 2: var = 2/3, sigma = 0.8165 -> 82 */
    assert_int_equal(st.stddev_x100, 82);
    assert_int_equal(st.outliers, 0);
    /* everything *100 exceeds 64 bits: clamped and flagged */
    assert_int_equal(st.median_x100, UINT64_MAX);
    assert_int_equal(st.mean_x100, UINT64_MAX);
    assert_int_equal(st.trimmed_mean_x100, UINT64_MAX);
    assert_int_equal(st.saturated, STATS_SAT_MEDIAN | STATS_SAT_MEAN | STATS_SAT_TRIMMED |
                                   STATS_SAT_Q1 | STATS_SAT_Q3);
}

static void test_sum_overflows_64_bits_mean_still_exact(void **state)
{
    (void)state;
    /* x = floor((2^64-1)/100) = 184467440737095516, so 100x still fits.
     * 200 samples of x-1 and 200 of x: sum = 400x - 200
     * = 73786976294838206200 > 2^64. mean = x - 0.5 ->
     * x100 = 100x - 50 = 18446744073709551550. */
    const uint64_t x = 184467440737095516ULL;
    for (uint32_t i = 0; i < 400; i++)
        big[i] = (i % 2) ? x : x - 1;
    struct stats st = compute(big, 400);
    assert_int_equal(st.mean_x100, 18446744073709551550ULL);
    /* median (x[199] + x[200]) / 2 = x - 0.5 */
    assert_int_equal(st.median_x100, 18446744073709551550ULL);
    /* f = 80: x[80..319] = 120 of each -> x - 0.5 */
    assert_int_equal(st.trimmed_mean_x100, 18446744073709551550ULL);
    assert_int_equal(st.stddev_x100, 50);        /* |d - mean| = 0.5 always */
    assert_int_equal(st.mode, x - 1);             /* 200 each: smallest */
    assert_int_equal(st.mode_count, 200);
    assert_int_equal(st.q1_x100, 18446744073709551500ULL); /* 100(x-1) */
    assert_int_equal(st.q3_x100, 18446744073709551600ULL); /* 100x */
    assert_int_equal(st.saturated, 0);
    assert_int_equal(st.outliers, 0);
}

static void test_variance_beyond_128_bits(void **state)
{
    (void)state;
    /* One 0 and m = 16384 samples of R = 2^64-1 (n = 16385).
     * With d = x - 0: sum d = mR, sum d^2 = mR^2 (about 2^142: more than
     * 128 bits), N = n*mR^2 - m^2R^2 = mR^2, sigma = sqrt(m)R/n = 128R/16385.
     * 100 sigma = 12800 * 18446744073709551615 / 16385
     *           = 236118324143482260672000 / 16385
     *           = 14410639251967180999 remainder 3385 (< 16385/2: down). */
    big[0] = 0;
    for (uint32_t i = 1; i <= 16384; i++)
        big[i] = UINT64_MAX;
    struct stats st = compute(big, 16385);
    assert_int_equal(st.stddev_x100, 14410639251967180999ULL);
    assert_int_equal(st.min, 0);
    assert_int_equal(st.max, UINT64_MAX);
    assert_int_equal(st.mode, UINT64_MAX);
    assert_int_equal(st.mode_count, 16384);
    /* q1 = median of x[0..8191] = (x[4095]+x[4096])/2 = R; iqr 0 -> 1;
     * the lone 0 is far below the low fence */
    assert_int_equal(st.outliers_low, 1);
    assert_int_equal(st.outliers_high, 0);
    assert_int_equal(st.saturated & STATS_SAT_STDDEV, 0);
    assert_true(st.saturated & STATS_SAT_MEAN);
}

static void test_full_range_pair(void **state)
{
    (void)state;
    /* {0, R}: sigma = R/2 and median = R/2: both *100 exceed 64 bits */
    static const uint64_t s[] = { UINT64_MAX, 0 };
    struct stats st = compute(s, 2);
    assert_int_equal(st.stddev_x100, UINT64_MAX);
    assert_int_equal(st.median_x100, UINT64_MAX);
    assert_true(st.saturated & STATS_SAT_STDDEV);
    assert_true(st.saturated & STATS_SAT_MEDIAN);
    assert_int_equal(st.min, 0);
    assert_int_equal(st.max, UINT64_MAX);
    assert_int_equal(st.median_low, 0);
    assert_int_equal(st.median_high, UINT64_MAX);
    assert_int_equal(st.outliers, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_count_every_statistic),
        cmocka_unit_test(test_even_count_median_and_mode_tie),
        cmocka_unit_test(test_even_median_half_value_and_mode_tie_all_distinct),
        cmocka_unit_test(test_mode_tie_larger_run_first_in_input),
        cmocka_unit_test(test_all_equal),
        cmocka_unit_test(test_single_sample),
        cmocka_unit_test(test_rejects_empty_and_null),
        cmocka_unit_test(test_sorts_in_place_when_scratch_is_samples),
        cmocka_unit_test(test_sort_large_reverse_and_duplicates),
        cmocka_unit_test(test_mean_rounding_half_up),
        cmocka_unit_test(test_stddev_rounding),
        cmocka_unit_test(test_trimmed_mean_indices),
        cmocka_unit_test(test_outliers_with_iqr_floor),
        cmocka_unit_test(test_outliers_tukey_boundary),
        cmocka_unit_test(test_extreme_samples_near_u64_max),
        cmocka_unit_test(test_sum_overflows_64_bits_mean_still_exact),
        cmocka_unit_test(test_variance_beyond_128_bits),
        cmocka_unit_test(test_full_range_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
