/* stats_sample_length: a sample must span STATS_MIN_STEPS steps of its time
 * base; the loops needed to get there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats_checks.h"

/* The issue's --unroll 1 --loops 1 on the TSC: a 40-tick sample. */
static void test_tsc_sample_too_short(void **state)
{
    (void)state;
    struct stats_length len;
    assert_false(stats_sample_length(1, 0, 40, 1, &len));
    assert_false(len.long_enough);
    assert_int_equal(len.min_ticks, 1000);
    assert_int_equal(len.loops_needed, 25);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_length(&len, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_NOT_JUDGED);
    assert_int_equal(j.flags, STATS_FLAG_SHORT);
    assert_string_equal(j.reason, "the timed run spans 40 ticks, below the minimum 1000: 25 loops needed, 1 used");
}

static void test_boundary_and_rounding_up(void **state)
{
    (void)state;
    struct stats_length len;
    assert_true(stats_sample_length(1, 0, 1000, 7, &len));
    assert_int_equal(len.loops_needed, 7);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_length(&len, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_STABLE);
    assert_int_equal(j.flags, 0);
    assert_false(stats_sample_length(1, 0, 999, 1, &len));
    assert_int_equal(len.loops_needed, 2);        /* ceil(1000 / 999) */
    assert_false(stats_sample_length(1, 0, 999, 1000, &len));
    assert_int_equal(len.loops_needed, 1002);     /* ceil(1000000 / 999) = 1001.001.. -> 1002 */
}

/* The PIT in pit/1000 units (PIT_SCALE 1000 a tick), 600 ticks as its
 * loop sizing asks today. */
static void test_pit_time_base(void **state)
{
    (void)state;
    struct stats_length len;
    assert_false(stats_sample_length(1000, 600, 6000, 10, &len));
    assert_int_equal(len.min_ticks, 600000);
    assert_int_equal(len.loops_needed, 1000);
    assert_true(stats_sample_length(1000, 600, 600000, 1000, &len));
}

static void test_nothing_measured_or_too_much_needed(void **state)
{
    (void)state;
    struct stats_length len;
    assert_false(stats_sample_length(1, 0, 0, 3, &len));
    assert_int_equal(len.loops_needed, 48);       /* nothing to scale from: 16x */
    assert_false(stats_sample_length(1, 0, 0, UINT32_MAX / 8, &len));
    assert_int_equal(len.loops_needed, UINT32_MAX);
    assert_false(stats_sample_length(UINT64_MAX, 1000, 1, 2, &len));
    assert_int_equal(len.min_ticks, UINT64_MAX);  /* saturated */
    assert_int_equal(len.loops_needed, UINT32_MAX);
    assert_false(stats_sample_length(0, 0, 10, 0, &len)); /* resolution 0 and 0 loops: 1 each */
    assert_int_equal(len.min_ticks, 1000);
    assert_int_equal(len.loops, 1);
    assert_int_equal(len.loops_needed, 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tsc_sample_too_short),
        cmocka_unit_test(test_boundary_and_rounding_up),
        cmocka_unit_test(test_pit_time_base),
        cmocka_unit_test(test_nothing_measured_or_too_much_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
