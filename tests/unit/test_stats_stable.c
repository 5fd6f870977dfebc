/* stats_stable: do the minima and medians of K ensembles agree? */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats.h"

static struct stats ens(uint64_t min, uint64_t median_low, uint64_t median_high)
{
    struct stats st = { 0 };
    st.n = 100;
    st.min = min;
    st.median_low = median_low;
    st.median_high = median_high;
    return st;
}

static void test_agree_from_real_sample_sets(void **state)
{
    (void)state;
    static const uint64_t a[] = { 1000, 1004, 1010, 1002, 1003 }; /* min 1000 med 1003 */
    static const uint64_t b[] = { 1001, 1005, 1006, 1020, 1005 }; /* min 1001 med 1005 */
    static const uint64_t c[] = { 1000, 1009, 1008, 1004, 1999 }; /* min 1000 med 1008 */
    uint64_t scratch[5];
    struct stats e[3];
    assert_true(stats_compute(a, 5, scratch, &e[0]));
    assert_true(stats_compute(b, 5, scratch, &e[1]));
    assert_true(stats_compute(c, 5, scratch, &e[2]));
    const struct stats_tolerance tol = STATS_TOLERANCE_DEFAULT; /* 1.00 or 2 % */
    struct stats_stability out;
    assert_true(stats_stable(e, 3, &tol, &out));
    assert_true(out.min_agree);
    assert_true(out.median_agree);
    assert_int_equal(out.min_spread_x100, 100);    /* 1001 - 1000 */
    assert_int_equal(out.median_spread_x100, 500); /* 1008 - 1003 */
    /* min: 1.00 of allowed max(1.00, 2% of 1001 = 20.02) -> 0.05 of it;
     * median: 5.00 of allowed 2% of 1008 = 20.16 -> 0.25: median is worse */
    assert_int_equal(out.worst, STATS_METRIC_MEDIAN);
    assert_int_equal(out.worst_spread_x100, 500);
}

static void test_disagree_on_median(void **state)
{
    (void)state;
    struct stats e[2] = { ens(1000, 1000, 1000), ens(1000, 1030, 1030) };
    const struct stats_tolerance tol = STATS_TOLERANCE_DEFAULT;
    struct stats_stability out;
    /* spread 30.00 > max(1.00, 2% of 1030 = 20.60) */
    assert_false(stats_stable(e, 2, &tol, &out));
    assert_false(out.agree);
    assert_true(out.min_agree);
    assert_false(out.median_agree);
    assert_int_equal(out.median_spread_x100, 3000);
    assert_int_equal(out.worst, STATS_METRIC_MEDIAN);
    assert_int_equal(out.worst_spread_x100, 3000);
}

static void test_relative_boundary_is_exact(void **state)
{
    (void)state;
    /* rel 50 permille, no abs: 950 vs 1000: spread 50.00 == 5% of 1000 -> agree */
    const struct stats_tolerance tol = { .abs_tol_x100 = 0, .rel_tol_permille = 50 };
    struct stats_stability out;
    struct stats e[2] = { ens(950, 2000, 2000), ens(1000, 2000, 2000) };
    assert_true(stats_stable(e, 2, &tol, &out));
    assert_int_equal(out.min_spread_x100, 5000);
    /* 949: spread 51.00 > 50.00 -> disagree */
    e[0].min = 949;
    assert_false(stats_stable(e, 2, &tol, &out));
    assert_false(out.min_agree);
    assert_true(out.median_agree);
    assert_int_equal(out.worst, STATS_METRIC_MIN);
    /* 2% of 1021 = 20.42 and spread 21: out; 1020 vs 1000: 20 <= 20.40 in */
    const struct stats_tolerance two = { .abs_tol_x100 = 0, .rel_tol_permille = 20 };
    struct stats f[2] = { ens(1000, 5, 5), ens(1021, 5, 5) };
    assert_false(stats_stable(f, 2, &two, &out));
    f[1].min = 1020;
    assert_true(stats_stable(f, 2, &two, &out));
}

static void test_absolute_boundary_and_half_medians(void **state)
{
    (void)state;
    const struct stats_tolerance tol = { .abs_tol_x100 = 300, .rel_tol_permille = 0 };
    struct stats_stability out;
    struct stats e[3] = { ens(10, 50, 50), ens(13, 50, 50), ens(11, 50, 50) };
    assert_true(stats_stable(e, 3, &tol, &out)); /* 3.00 <= 3.00 */
    e[1].min = 14;
    assert_false(stats_stable(e, 3, &tol, &out)); /* 4.00 > 3.00 */
    /* medians 1.5 and 2.0: spread 0.50 */
    const struct stats_tolerance half = { .abs_tol_x100 = 50, .rel_tol_permille = 0 };
    struct stats m[2] = { ens(1, 1, 2), ens(1, 2, 2) };
    assert_true(stats_stable(m, 2, &half, &out));
    assert_int_equal(out.median_spread_x100, 50);
    const struct stats_tolerance less = { .abs_tol_x100 = 49, .rel_tol_permille = 0 };
    assert_false(stats_stable(m, 2, &less, &out));
    assert_false(out.median_agree);
}

static void test_64_bit_extremes(void **state)
{
    (void)state;
    const struct stats_tolerance tol = { .abs_tol_x100 = 100, .rel_tol_permille = 0 };
    struct stats_stability out;
    /* R-1 vs R: spread 1.00 computed without wrapping -> agree */
    struct stats e[2] = { ens(UINT64_MAX - 1, UINT64_MAX, UINT64_MAX),
                          ens(UINT64_MAX, UINT64_MAX, UINT64_MAX) };
    assert_true(stats_stable(e, 2, &tol, &out));
    assert_int_equal(out.min_spread_x100, 100);
    assert_int_equal(out.median_spread_x100, 0);
    /* 0 vs R: spread R*100 does not fit 64 bits: reported clamped, disagree */
    e[0] = ens(0, 0, 0);
    assert_false(stats_stable(e, 2, &tol, &out));
    assert_int_equal(out.min_spread_x100, UINT64_MAX);
    assert_int_equal(out.median_spread_x100, UINT64_MAX);
    /* 0.1 % of R tolerates R - R/1000: relative product 1 * R*100 needs 75 bits */
    const struct stats_tolerance rel = { .abs_tol_x100 = 0, .rel_tol_permille = 1 };
    e[0] = ens(UINT64_MAX - UINT64_MAX / 1000, UINT64_MAX, UINT64_MAX);
    e[1] = ens(UINT64_MAX, UINT64_MAX, UINT64_MAX);
    assert_true(stats_stable(e, 2, &rel, &out));
    e[0].min -= 1; /* spread R/1000 + 1 > R/1000 */
    assert_false(stats_stable(e, 2, &rel, &out));
}

static void test_single_and_empty(void **state)
{
    (void)state;
    const struct stats_tolerance tol = { .abs_tol_x100 = 0, .rel_tol_permille = 0 };
    struct stats_stability out;
    struct stats one = ens(5, 7, 8);
    assert_true(stats_stable(&one, 1, &tol, &out)); /* nothing to disagree with */
    assert_int_equal(out.min_spread_x100, 0);
    assert_int_equal(out.median_spread_x100, 0);
    assert_false(stats_stable(&one, 0, &tol, &out));
    assert_false(out.agree);
    assert_false(stats_stable(NULL, 1, &tol, &out));
    assert_false(stats_stable(&one, 1, NULL, &out));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agree_from_real_sample_sets),
        cmocka_unit_test(test_disagree_on_median),
        cmocka_unit_test(test_relative_boundary_is_exact),
        cmocka_unit_test(test_absolute_boundary_and_half_medians),
        cmocka_unit_test(test_64_bit_extremes),
        cmocka_unit_test(test_single_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
