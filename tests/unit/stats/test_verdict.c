/* stats_verdict: the three-way verdict only worsens, reasons add up, every
 * flag has a machine name and a legend. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stats/stats_verdict.h"

static void test_start_is_stable_and_empty(void **state)
{
    (void)state;
    struct stats_judgement j;
    memset(&j, 0x5a, sizeof j);
    stats_judgement_start(&j);
    assert_int_equal(j.verdict, STATS_VERDICT_STABLE);
    assert_int_equal(j.flags, 0);
    assert_string_equal(j.reason, "");
}

static void test_verdict_only_worsens_and_reasons_add_up(void **state)
{
    (void)state;
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judgement_raise(&j, STATS_VERDICT_NOT_JUDGED, STATS_FLAG_FEW, "%u samples", 8u);
    assert_int_equal(j.verdict, STATS_VERDICT_NOT_JUDGED);
    stats_judgement_raise(&j, STATS_VERDICT_UNSTABLE, STATS_FLAG_MODES, "two modes");
    assert_int_equal(j.verdict, STATS_VERDICT_UNSTABLE);
    stats_judgement_raise(&j, STATS_VERDICT_NOT_JUDGED, STATS_FLAG_SHORT, "short");
    assert_int_equal(j.verdict, STATS_VERDICT_UNSTABLE); /* never back to a milder one */
    assert_int_equal(j.flags, STATS_FLAG_FEW | STATS_FLAG_MODES | STATS_FLAG_SHORT);
    assert_string_equal(j.reason, "8 samples; two modes; short");
}

static void test_a_long_reason_ends_in_dots(void **state)
{
    (void)state;
    struct stats_judgement j;
    stats_judgement_start(&j);
    for (int i = 0; i < 40; i++)
        stats_judgement_raise(&j, STATS_VERDICT_UNSTABLE, STATS_FLAG_ENSEMBLES, "reason number %d", i);
    size_t len = strlen(j.reason);
    assert_int_equal(len, STATS_REASON_MAX - 1);
    assert_string_equal(j.reason + len - 3, "...");
    assert_memory_equal(j.reason, "reason number 0; reason number 1; ", 34);
}

static void test_every_flag_has_a_distinct_name_and_a_legend(void **state)
{
    (void)state;
    for (int i = 0; i < STATS_FLAG_COUNT; i++) {
        const char *name = stats_flag_name(1u << i);
        assert_non_null(name);
        assert_non_null(stats_flag_legend(1u << i));
        assert_null(strchr(name, ' ')); /* a machine name: one word */
        for (int k = 0; k < i; k++)
            assert_string_not_equal(name, stats_flag_name(1u << k));
    }
    assert_string_equal(stats_flag_name(STATS_FLAG_NEGATIVES), "negatives");
    assert_string_equal(stats_flag_name(STATS_FLAG_CLAMPED), "clamped");
    assert_string_equal(stats_flag_name(STATS_FLAG_NONLINEAR), "non-linear");
    assert_string_equal(stats_flag_name(STATS_FLAG_REF_RATE), "ref-rate");
    assert_null(stats_flag_name(0));
    assert_null(stats_flag_name(STATS_FLAG_NEGATIVES | STATS_FLAG_MODES));
    assert_null(stats_flag_legend(1u << STATS_FLAG_COUNT));
}

static void test_verdict_names(void **state)
{
    (void)state;
    assert_string_equal(stats_verdict_name(STATS_VERDICT_STABLE), "stable");
    assert_string_equal(stats_verdict_name(STATS_VERDICT_UNSTABLE), "unstable");
    assert_string_equal(stats_verdict_name(STATS_VERDICT_NOT_JUDGED), "not judged");
}

static void test_reason_values_are_per_body(void **state)
{
    (void)state;
    char buf[24];
    stats_reason_x100(buf, sizeof buf, 6300, 100);
    assert_string_equal(buf, "0.63");
    stats_reason_x100(buf, sizeof buf, 125, 1);
    assert_string_equal(buf, "1.25");
    stats_reason_x100(buf, sizeof buf, 5, 10); /* 0.5 hundredths rounds half up */
    assert_string_equal(buf, "0.01");
    stats_reason_x100(buf, sizeof buf, UINT64_MAX, 0);
    assert_string_equal(buf, "92233720368547758.07");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_is_stable_and_empty),
        cmocka_unit_test(test_verdict_only_worsens_and_reasons_add_up),
        cmocka_unit_test(test_a_long_reason_ends_in_dots),
        cmocka_unit_test(test_every_flag_has_a_distinct_name_and_a_legend),
        cmocka_unit_test(test_verdict_names),
        cmocka_unit_test(test_reason_values_are_per_body),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
