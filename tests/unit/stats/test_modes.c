/* stats_modes: clusters split by gaps, each mode with its value and count;
 * the same function over the medians of reruns. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats_checks.h"

static uint64_t values[256], scratch[256];

/* Issue 20 point 3: a self-pointing chase ran at 0.63 and 5.0 cycles. 201
 * samples of 100 bodies: 120 near 63 ticks (62, 63, 64 in turn) and 81 at
 * 500, interleaved as a drifting run would give them. */
static void test_two_modes_with_their_counts(void **state)
{
    (void)state;
    uint32_t n = 0, fast = 0;
    for (uint32_t s = 0; s < 201; s++)
        values[n++] = (s % 5 < 3 && fast < 120) ? (uint64_t)(62 + fast++ % 3) : 500;
    assert_int_equal(fast, 120);
    const struct stats_mode_rule rule = STATS_MODE_RULE_DEFAULT;
    struct stats_modes m;
    assert_int_equal(stats_modes(values, n, &rule, scratch, &m), 2);
    assert_int_equal(m.n, 201);
    assert_int_equal(m.count, 2);
    assert_int_equal(m.unlisted, 0);
    assert_int_equal(m.outside, 0);
    assert_int_equal(m.mode[0].count, 120);
    assert_int_equal(m.mode[0].value_x100, 6300);
    assert_int_equal(m.mode[0].lo, 62);
    assert_int_equal(m.mode[0].hi, 64);
    assert_int_equal(m.mode[1].count, 81);
    assert_int_equal(m.mode[1].value_x100, 50000);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_modes(&m, 100, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(j.flags, STATS_FLAG_MODES);
    assert_string_equal(j.reason, "2 modes: 0.63 (120 of 201), 5.00 (81 of 201)");
}

/* One cluster with jitter and three interrupted samples: one mode, the
 * stragglers outside it, no flag. */
static void test_one_mode_and_outliers(void **state)
{
    (void)state;
    uint32_t n = 0;
    for (uint32_t s = 0; s < 198; s++)
        values[n++] = 990 + (s * 5) % 21; /* 990..1010, every value */
    values[n++] = 5000;
    values[n++] = 5200;
    values[n++] = 9000;
    const struct stats_mode_rule rule = STATS_MODE_RULE_DEFAULT;
    struct stats_modes m;
    assert_int_equal(stats_modes(values, n, &rule, scratch, &m), 1);
    assert_int_equal(m.mode[0].count, 198);
    assert_int_equal(m.mode[0].lo, 990);
    assert_int_equal(m.mode[0].hi, 1010);
    assert_int_equal(m.outside, 3);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_modes(&m, 1, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_STABLE);
    assert_int_equal(j.flags, 0);
}

/* A body of 3.5 ticks reads 3 and 4 in turn: one unit apart is the time
 * base's resolution, not a second mode. */
static void test_one_tick_apart_is_one_mode(void **state)
{
    (void)state;
    for (uint32_t s = 0; s < 100; s++)
        values[s] = 3 + s % 2;
    const struct stats_mode_rule rule = STATS_MODE_RULE_DEFAULT;
    struct stats_modes m;
    assert_int_equal(stats_modes(values, 100, &rule, scratch, &m), 1);
    assert_int_equal(m.mode[0].count, 100);
    assert_int_equal(m.mode[0].value_x100, 350); /* (3 + 4) / 2 */
}

/* Reruns: the same function over per-run medians (x100), every rerun counts. */
static void test_modes_across_reruns(void **state)
{
    (void)state;
    const uint64_t medians[3] = { 50000, 6300, 50000 };
    const struct stats_mode_rule rule = { .min_gap = 100, .gap_permille = 100, .min_share_permille = 0 };
    struct stats_modes m;
    uint64_t sorted[3];
    assert_int_equal(stats_modes(medians, 3, &rule, sorted, &m), 2);
    assert_int_equal(m.mode[0].count, 2);
    assert_int_equal(m.mode[0].value_x100, 5000000);
    assert_int_equal(m.mode[1].count, 1);
    assert_int_equal(m.mode[1].value_x100, 630000);
    assert_int_equal(medians[0], 50000); /* the input is left alone */
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_modes(&m, 100, &j);
    assert_string_equal(j.reason, "2 modes: 500.00 (2 of 3), 63.00 (1 of 3)");
}

/* The relative gap is measured against the larger neighbour, exactly. */
static void test_gap_boundary(void **state)
{
    (void)state;
    const struct stats_mode_rule rule = { .min_gap = 1, .gap_permille = 100, .min_share_permille = 0 };
    struct stats_modes m;
    uint64_t pair[2] = { 90, 100 }; /* gap 10 = 10 % of 100: not a split */
    assert_int_equal(stats_modes(pair, 2, &rule, pair, &m), 1);
    pair[0] = 89;                   /* gap 11 > 10: split */
    pair[1] = 100;
    assert_int_equal(stats_modes(pair, 2, &rule, pair, &m), 2);
    const struct stats_mode_rule wide_gap = { .min_gap = 11, .gap_permille = 100, .min_share_permille = 0 };
    pair[0] = 89;
    pair[1] = 100;
    assert_int_equal(stats_modes(pair, 2, &wide_gap, pair, &m), 1); /* 11 is not above 11 */
}

/* Five clusters: the four largest are listed (largest first, a tie: the
 * smaller value first), the fifth is counted as unlisted. */
static void test_more_modes_than_listed(void **state)
{
    (void)state;
    static const struct { uint64_t value; uint32_t count; } cl[5] = {
        { 100, 10 }, { 1000, 30 }, { 10000, 20 }, { 100000, 30 }, { 1000000, 40 },
    };
    uint32_t n = 0;
    for (int c = 4; c >= 0; c--)
        for (uint32_t i = 0; i < cl[c].count; i++)
            values[n++] = cl[c].value;
    const struct stats_mode_rule rule = { .min_gap = 1, .gap_permille = 100, .min_share_permille = 50 };
    struct stats_modes m;
    assert_int_equal(stats_modes(values, n, &rule, scratch, &m), 5);
    assert_int_equal(m.count, 4);
    assert_int_equal(m.unlisted, 1);
    assert_int_equal(m.outside, 10);
    assert_int_equal(m.mode[0].lo, 1000000);
    assert_int_equal(m.mode[1].lo, 1000);
    assert_int_equal(m.mode[2].lo, 100000);
    assert_int_equal(m.mode[3].lo, 10000);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_modes(&m, 1, &j);
    assert_string_equal(j.reason, "5 modes: 1000000.00 (40 of 130), 1000.00 (30 of 130), "
                                  "100000.00 (30 of 130), 10000.00 (20 of 130) and 1 more");
}

static void test_small_clusters_are_not_modes(void **state)
{
    (void)state;
    for (uint32_t s = 0; s < 100; s++)
        values[s] = s < 91 ? 1000 : 3000; /* 9 % at 3000: below the 10 % share */
    const struct stats_mode_rule rule = STATS_MODE_RULE_DEFAULT;
    struct stats_modes m;
    assert_int_equal(stats_modes(values, 100, &rule, scratch, &m), 1);
    assert_int_equal(m.outside, 9);
    values[90] = 3000;                 /* 10 %: a mode */
    assert_int_equal(stats_modes(values, 100, &rule, scratch, &m), 2);
    assert_int_equal(m.mode[1].count, 10);
    assert_int_equal(stats_modes(values, 0, &rule, scratch, &m), 0);
    assert_int_equal(m.n, 0);
    assert_int_equal(stats_modes(values, 10, NULL, scratch, &m), 0);
}

/* Seven samples spread over 1, 7, 13, ...: each its own 10 % "mode" by
 * share alone; with min_count 3 none is, and a floor of 3 keeps a real
 * cluster of 3. */
static void test_min_count_floor(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < 7; i++)
        values[i] = 1 + 6 * (uint64_t)i;
    struct stats_mode_rule rule = STATS_MODE_RULE_DEFAULT;
    struct stats_modes m;
    assert_int_equal(stats_modes(values, 7, &rule, scratch, &m), 7);
    rule.min_count = 3;
    assert_int_equal(stats_modes(values, 7, &rule, scratch, &m), 0);
    assert_int_equal(m.outside, 7);
    values[7] = values[8] = 42; /* the last sample moved to 42 and two more beside it */
    values[6] = 42;
    assert_int_equal(stats_modes(values, 9, &rule, scratch, &m), 1);
    assert_int_equal(m.mode[0].count, 3);
    assert_int_equal(m.mode[0].value_x100, 4200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_modes_with_their_counts),
        cmocka_unit_test(test_one_mode_and_outliers),
        cmocka_unit_test(test_one_tick_apart_is_one_mode),
        cmocka_unit_test(test_modes_across_reruns),
        cmocka_unit_test(test_gap_boundary),
        cmocka_unit_test(test_more_modes_than_listed),
        cmocka_unit_test(test_small_clusters_are_not_modes),
        cmocka_unit_test(test_min_count_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
