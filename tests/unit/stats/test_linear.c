/* stats_linear: the cost per copy at U, 2U and 4U copies must agree within
 * the spreads, or the result is flagged non-linear with the values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats_checks.h"

/* Per copy: within 0.05 or 2 %, whichever is larger, beyond the spreads. */
static const struct stats_tolerance tol = { .abs_tol_x100 = 5, .rel_tol_permille = 20 };

/* Issue 20 point 9: push rax; pop rax gave 0.50 at U=8, 6.54 at 16 and 5.01
 * at 32 (two regimes: up to 16 copies in flight and beyond). */
static void test_push_pop_is_non_linear(void **state)
{
    (void)state;
    const struct stats_point p[3] = { { 8, 50, 5 }, { 16, 654, 20 }, { 32, 501, 20 } };
    struct stats_linearity lin;
    assert_false(stats_linear(p, 3, &tol, &lin));
    assert_true(lin.judged);
    assert_false(lin.linear);
    assert_int_equal(lin.worst_a, 0);
    assert_int_equal(lin.worst_b, 1);
    assert_int_equal(lin.worst_gap_x100, 604);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_linear(p, 3, &lin, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(j.flags, STATS_FLAG_NONLINEAR);
    assert_string_equal(j.reason, "non-linear in the copy count: 0.50 at 8 copies, 6.54 at 16, 5.01 at 32");
}

/* Issue 20 point 9, alignment: cmp; jne gave 0.65 at U=8 and 0.50 at 4 and
 * 16 (U and 2U at different alignments). Any copy count off the others is
 * flagged, here the middle one. */
static void test_alignment_case_is_flagged(void **state)
{
    (void)state;
    const struct stats_point p[3] = { { 4, 50, 1 }, { 8, 65, 2 }, { 16, 50, 1 } };
    struct stats_linearity lin;
    assert_false(stats_linear(p, 3, &tol, &lin));
    assert_int_equal(lin.worst_a, 0); /* 0-1 and 1-2 are equally far out: the first kept */
    assert_int_equal(lin.worst_b, 1);
    assert_int_equal(lin.worst_gap_x100, 15);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_linear(p, 3, &lin, &j);
    assert_string_equal(j.reason, "non-linear in the copy count: 0.50 at 4 copies, 0.65 at 8, 0.50 at 16");
}

/* Within the spreads: linear. The worst pair is the one closest to its
 * limit: 16 vs 32 differ by 0.08 of an allowed 0.10 (spreads 0.05 + 0.05). */
static void test_within_spread_is_linear(void **state)
{
    (void)state;
    const struct stats_point p[3] = { { 8, 300, 10 }, { 16, 310, 5 }, { 32, 302, 5 } };
    struct stats_linearity lin;
    assert_true(stats_linear(p, 3, &tol, &lin));
    assert_int_equal(lin.worst_a, 1);
    assert_int_equal(lin.worst_b, 2);
    assert_int_equal(lin.worst_gap_x100, 8);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_linear(p, 3, &lin, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_STABLE);
    assert_int_equal(j.flags, 0);
    const struct stats_point q[3] = { { 8, 300, 10 }, { 16, 310, 5 }, { 32, 299, 5 } };
    assert_false(stats_linear(q, 3, &tol, &lin)); /* 0.11 apart, 0.10 allowed */
    assert_int_equal(lin.worst_a, 1);
    assert_int_equal(lin.worst_b, 2);
}

/* With no spread (an exact time base) the relative tolerance decides,
 * against the larger magnitude, exactly at the boundary. */
static void test_relative_boundary(void **state)
{
    (void)state;
    const struct stats_tolerance rel = { .abs_tol_x100 = 0, .rel_tol_permille = 20 };
    struct stats_point p[2] = { { 4, 980, 0 }, { 8, 1000, 0 } };
    struct stats_linearity lin;
    assert_true(stats_linear(p, 2, &rel, &lin));  /* 20 = 2 % of 1000 */
    p[0].value_x100 = 979;
    assert_false(stats_linear(p, 2, &rel, &lin));
    assert_int_equal(lin.worst_gap_x100, 21);
    p[0].value_x100 = -1000;                      /* magnitudes count, not signs */
    p[1].value_x100 = -980;
    assert_true(stats_linear(p, 2, &rel, &lin));
}

static void test_signs_and_extremes(void **state)
{
    (void)state;
    const struct stats_tolerance abs = { .abs_tol_x100 = 100, .rel_tol_permille = 0 };
    struct stats_point p[2] = { { 1, -50, 0 }, { 2, 50, 0 } };
    struct stats_linearity lin;
    assert_true(stats_linear(p, 2, &abs, &lin)); /* 1.00 apart, 1.00 allowed */
    p[0].value_x100 = INT64_MIN;
    p[1].value_x100 = INT64_MAX;
    assert_false(stats_linear(p, 2, &abs, &lin));
    assert_int_equal(lin.worst_gap_x100, UINT64_MAX);
    p[0].spread_x100 = UINT64_MAX;               /* spreads that add past 64 bits */
    p[1].spread_x100 = UINT64_MAX;
    assert_true(stats_linear(p, 2, &abs, &lin));
}

static void test_point_counts(void **state)
{
    (void)state;
    const struct stats_point p[5] = { { 1, 100, 0 }, { 2, 100, 0 }, { 4, 100, 0 }, { 8, 100, 0 }, { 16, 100, 0 } };
    struct stats_linearity lin;
    assert_true(stats_linear(p, 4, &tol, &lin));
    assert_true(lin.judged);
    assert_false(stats_linear(p, 5, &tol, &lin));
    assert_false(lin.judged);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_linear(p, 5, &lin, &j); /* not judged: no claim either way */
    assert_int_equal(j.flags, 0);
    assert_false(stats_linear(p, 1, &tol, &lin));
    assert_false(stats_linear(NULL, 3, &tol, &lin));
    assert_int_equal(lin.worst_gap_x100, 0);
}

/* From sample statistics: 9 samples of U*L = 800 bodies at 8 copies. Sorted
 * 380 390 395 398 400 402 405 410 420: median 400 -> 0.50 a body; q1 =
 * median of the lower four = (390 + 395) / 2 = 392.5, q3 = (405 + 410) / 2
 * = 407.5, half the IQR 7.5 -> 750 x100 / 800 bodies = 0.9375 -> 0.01. */
static void test_point_from_statistics(void **state)
{
    (void)state;
    const uint64_t d[9] = { 400, 410, 380, 402, 398, 420, 395, 390, 405 };
    uint64_t scratch[9];
    struct stats st;
    assert_true(stats_compute(d, 9, scratch, &st));
    assert_int_equal(st.q1_x100, 39250);
    assert_int_equal(st.q3_x100, 40750);
    struct stats_point p = stats_point_of(&st, 8, 800);
    assert_int_equal(p.copies, 8);
    assert_int_equal(p.value_x100, 50);
    assert_int_equal(p.spread_x100, 1);
    p = stats_point_of(&st, 8, 0); /* 0 bodies: as 1 */
    assert_int_equal(p.value_x100, 40000);
    assert_int_equal(p.spread_x100, 750);
    p = stats_point_of(&st, 8, 6);    /* 1500 / 12 = 125 exactly; 40000 / 6 = 6666.67 -> 6667 */
    assert_int_equal(p.value_x100, 6667);
    assert_int_equal(p.spread_x100, 125);
    p = stats_point_of(&st, 8, 4000); /* 1500 / 8000 = 0.1875 -> 0 */
    assert_int_equal(p.spread_x100, 0);
    st.q3_x100 = UINT64_MAX;
    st.q1_x100 = 0;
    p = stats_point_of(&st, 8, UINT64_MAX); /* 2 * bodies beyond 64 bits */
    assert_int_equal(p.spread_x100, 1);
    st.median_x100 = UINT64_MAX;
    p = stats_point_of(&st, 8, 1);
    assert_int_equal(p.value_x100, INT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_pop_is_non_linear),
        cmocka_unit_test(test_alignment_case_is_flagged),
        cmocka_unit_test(test_within_spread_is_linear),
        cmocka_unit_test(test_relative_boundary),
        cmocka_unit_test(test_signs_and_extremes),
        cmocka_unit_test(test_point_counts),
        cmocka_unit_test(test_point_from_statistics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
