/* stats_rate_check: the cycle reference of a run against the start-up rate. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats_checks.h"

/* Issue 20 point 9: at --unroll 1 the ADDs hid under the loop's branch. */
static void test_the_issues_unroll_1(void **state)
{
    (void)state;
    struct stats_rate rate;
    assert_false(stats_rate_check(24, 62, 0, &rate));
    assert_int_equal(rate.run_x100, 24);
    assert_int_equal(rate.startup_x100, 62);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_rate(&rate, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(j.flags, STATS_FLAG_REF_RATE);
    assert_string_equal(j.reason, "the cycle reference ran at 0.24 ticks per step here, 0.62 at start-up");
}

static void test_the_tolerance_is_exact_and_symmetric(void **state)
{
    (void)state;
    struct stats_rate rate;
    assert_true(stats_rate_check(62, 62, 0, &rate));
    assert_true(stats_rate_check(75, 100, 0, &rate));   /* 25 % of 100: the limit */
    assert_true(stats_rate_check(100, 75, 0, &rate));
    assert_false(stats_rate_check(74, 100, 0, &rate));
    assert_false(stats_rate_check(100, 74, 0, &rate));
    assert_true(stats_rate_check(98, 100, 20, &rate));  /* a caller's 2 % */
    assert_false(stats_rate_check(97, 100, 20, &rate));
    assert_true(stats_rate_check(INT64_MAX, INT64_MAX - 1, 1, &rate)); /* no overflow */
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_rate(&rate, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_STABLE);
    assert_int_equal(j.flags, 0);
}

static void test_a_rate_of_zero_or_below_never_agrees(void **state)
{
    (void)state;
    struct stats_rate rate;
    assert_false(stats_rate_check(0, 0, 0, &rate));
    assert_false(stats_rate_check(0, 62, 0, &rate));
    assert_false(stats_rate_check(62, -62, 0, &rate));
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_rate(&rate, &j);
    assert_string_equal(j.reason, "the cycle reference ran at 0.62 ticks per step here, -0.62 at start-up");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_issues_unroll_1),
        cmocka_unit_test(test_the_tolerance_is_exact_and_symmetric),
        cmocka_unit_test(test_a_rate_of_zero_or_below_never_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
