/* stats_negatives / stats_judge_negatives: samples with t(2U) < t(U), the
 * 5 % limit, and a median that was negative before clamping. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats_checks.h"

#define N 201
static uint64_t t_u[N], t_2u[N];

/* n samples: t(U) = 1000, t(2U) = 1000 + 50 except `negative` samples
 * (spread over the set: indexes 7k mod n, distinct as 7 is prime to n)
 * where t(2U) = 1000 - 7. */
static void samples(uint32_t n, uint32_t negative)
{
    for (uint32_t s = 0; s < n; s++) {
        t_u[s] = 1000;
        t_2u[s] = 1050;
    }
    for (uint32_t k = 0; k < negative; k++)
        t_2u[(7 * k) % n] = 993;
}

static void test_the_issues_200_of_201(void **state)
{
    (void)state;
    samples(N, 200);
    struct stats_negatives neg;
    stats_negatives(t_u, t_2u, N, &neg);
    assert_int_equal(neg.n, 201);
    assert_int_equal(neg.negative, 200);
    assert_true(neg.median_negative);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_negatives(&neg, NULL, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(j.flags, STATS_FLAG_NEGATIVES | STATS_FLAG_CLAMPED);
    assert_string_equal(j.reason,
                        "200 of 201 samples had t(2U) < t(U); the median difference is negative, shown as 0");
}

static void test_five_percent_is_the_limit(void **state)
{
    (void)state;
    struct stats_negatives neg;
    struct stats_judgement j;
    samples(200, 10); /* exactly 5 %: allowed */
    stats_negatives(t_u, t_2u, 200, &neg);
    assert_int_equal(neg.negative, 10);
    assert_false(neg.median_negative);
    stats_judgement_start(&j);
    stats_judge_negatives(&neg, NULL, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_STABLE);
    assert_int_equal(j.flags, 0);

    samples(200, 11); /* 5.5 % */
    stats_negatives(t_u, t_2u, 200, &neg);
    stats_judgement_start(&j);
    stats_judge_negatives(&neg, NULL, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(j.flags, STATS_FLAG_NEGATIVES);
    assert_string_equal(j.reason, "11 of 200 samples had t(2U) < t(U)");
}

static void test_the_issues_short_run_with_a_quarter_negative(void **state)
{
    (void)state;
    samples(N, 51);
    struct stats_negatives neg;
    stats_negatives(t_u, t_2u, N, &neg);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_negatives(&neg, "t(U) < t(0)", &j);
    assert_int_equal(j.flags, STATS_FLAG_NEGATIVES);
    assert_string_equal(j.reason, "51 of 201 samples had t(U) < t(0)");
}

/* Even n with half the differences negative: the median is the mean of the
 * negative closest to zero and the smallest non-negative difference. */
static void test_even_median_compares_the_middle_pair(void **state)
{
    (void)state;
    const uint64_t u[4] = { 100, 100, 100, 100 };
    const uint64_t below[4] = { 97, 90, 102, 150 };  /* -3 -10 +2 +50: median (-3+2)/2 < 0 */
    const uint64_t above[4] = { 98, 90, 103, 150 };  /* -2 -10 +3 +50: median > 0 */
    const uint64_t zero[4] = { 98, 90, 102, 150 };   /* -2 -10 +2 +50: median 0 */
    struct stats_negatives neg;
    stats_negatives(u, below, 4, &neg);
    assert_int_equal(neg.negative, 2);
    assert_true(neg.median_negative);
    stats_negatives(u, above, 4, &neg);
    assert_false(neg.median_negative);
    stats_negatives(u, zero, 4, &neg);
    assert_false(neg.median_negative);
}

static void test_odd_median_and_extremes(void **state)
{
    (void)state;
    const uint64_t u[3] = { 0, UINT64_MAX, 5 };
    const uint64_t v[3] = { UINT64_MAX, 0, 4 }; /* +max, -max, -1: median -1 */
    struct stats_negatives neg;
    stats_negatives(u, v, 3, &neg);
    assert_int_equal(neg.negative, 2);
    assert_true(neg.median_negative);
    stats_negatives(u, v, 1, &neg); /* only +max */
    assert_int_equal(neg.negative, 0);
    assert_false(neg.median_negative);
}

static void test_nothing_to_count(void **state)
{
    (void)state;
    struct stats_negatives neg = { .n = 9, .negative = 9, .median_negative = true };
    stats_negatives(t_u, t_2u, 0, &neg);
    assert_int_equal(neg.n, 0);
    assert_int_equal(neg.negative, 0);
    assert_false(neg.median_negative);
    stats_negatives(NULL, t_2u, 5, &neg);
    assert_int_equal(neg.n, 0);
    struct stats_judgement j;
    stats_judgement_start(&j);
    stats_judge_negatives(&neg, NULL, &j);
    assert_int_equal(j.verdict, STATS_VERDICT_STABLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_issues_200_of_201),
        cmocka_unit_test(test_five_percent_is_the_limit),
        cmocka_unit_test(test_the_issues_short_run_with_a_quarter_negative),
        cmocka_unit_test(test_even_median_compares_the_middle_pair),
        cmocka_unit_test(test_odd_median_and_extremes),
        cmocka_unit_test(test_nothing_to_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
