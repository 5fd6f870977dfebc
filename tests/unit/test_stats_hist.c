/* stats_histogram: bin width, edges and the number of bins used. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats.h"

static void test_eleven_values_four_bins(void **state)
{
    (void)state;
    /* 10..20: span 11, width ceil(11/4) = 3: [10-12] [13-15] [16-18] [19-21] */
    uint64_t s[11];
    for (int i = 0; i < 11; i++)
        s[i] = (uint64_t)(20 - i); /* any order */
    uint32_t bins[4] = { 99, 99, 99, 99 };
    uint64_t lo = 0, width = 0;
    assert_int_equal(stats_histogram(s, 11, 4, bins, &lo, &width), 4);
    assert_int_equal(lo, 10);
    assert_int_equal(width, 3);
    assert_int_equal(bins[0], 3);
    assert_int_equal(bins[1], 3);
    assert_int_equal(bins[2], 3);
    assert_int_equal(bins[3], 2);
}

static void test_bin_edges(void **state)
{
    (void)state;
    /* lo 100, max 139: span 40, 4 bins of 10: 109 is the last of bin 0,
     * 110 the first of bin 1, 139 the last of bin 3 */
    static const uint64_t s[] = { 100, 109, 110, 119, 120, 129, 130, 139, 139 };
    uint32_t bins[4];
    uint64_t lo, width;
    assert_int_equal(stats_histogram(s, 9, 4, bins, &lo, &width), 4);
    assert_int_equal(lo, 100);
    assert_int_equal(width, 10);
    assert_int_equal(bins[0], 2);
    assert_int_equal(bins[1], 2);
    assert_int_equal(bins[2], 2);
    assert_int_equal(bins[3], 3);
    /* max 140 instead: span 41 -> width 11: [100-110] [111-121] [122-132] [133-143] */
    static const uint64_t t[] = { 100, 110, 111, 121, 122, 132, 133, 140 };
    assert_int_equal(stats_histogram(t, 8, 4, bins, &lo, &width), 4);
    assert_int_equal(width, 11);
    for (int i = 0; i < 4; i++)
        assert_int_equal(bins[i], 2);
}

static void test_fewer_bins_used_than_asked(void **state)
{
    (void)state;
    /* 0..4: span 5, 4 bins -> width 2: [0-1] [2-3] [4-5]: 3 bins cover it */
    static const uint64_t s[] = { 0, 1, 2, 3, 4 };
    uint32_t bins[4] = { 7, 7, 7, 7 };
    uint64_t lo, width;
    assert_int_equal(stats_histogram(s, 5, 4, bins, &lo, &width), 3);
    assert_int_equal(width, 2);
    assert_int_equal(bins[0], 2);
    assert_int_equal(bins[1], 2);
    assert_int_equal(bins[2], 1);
    assert_int_equal(bins[3], 0);
    /* more bins than values: width 1, one bin per value */
    static const uint64_t t[] = { 7, 5, 6, 6 };
    uint32_t many[10];
    assert_int_equal(stats_histogram(t, 4, 10, many, &lo, &width), 3);
    assert_int_equal(lo, 5);
    assert_int_equal(width, 1);
    assert_int_equal(many[0], 1);
    assert_int_equal(many[1], 2);
    assert_int_equal(many[2], 1);
    for (int i = 3; i < 10; i++)
        assert_int_equal(many[i], 0);
}

static void test_all_equal_and_single(void **state)
{
    (void)state;
    static const uint64_t s[] = { 9, 9, 9 };
    uint32_t bins[5];
    uint64_t lo, width;
    assert_int_equal(stats_histogram(s, 3, 5, bins, &lo, &width), 1);
    assert_int_equal(lo, 9);
    assert_int_equal(width, 1);
    assert_int_equal(bins[0], 3);
    assert_int_equal(bins[1], 0);
    assert_int_equal(stats_histogram(s, 1, 1, bins, &lo, &width), 1);
    assert_int_equal(bins[0], 1);
}

static void test_full_64_bit_range(void **state)
{
    (void)state;
    static const uint64_t s[] = { 0, (1ULL << 63) - 1, 1ULL << 63, UINT64_MAX };
    uint32_t bins[2];
    uint64_t lo, width;
    /* 2 bins: span 2^64, width 2^63: [0, 2^63-1] and [2^63, 2^64-1] */
    assert_int_equal(stats_histogram(s, 4, 2, bins, &lo, &width), 2);
    assert_int_equal(lo, 0);
    assert_int_equal(width, 1ULL << 63);
    assert_int_equal(bins[0], 2);
    assert_int_equal(bins[1], 2);
    /* 1 bin: the width 2^64 does not fit, clamped; all in the one bin */
    assert_int_equal(stats_histogram(s, 4, 1, bins, &lo, &width), 1);
    assert_int_equal(width, UINT64_MAX);
    assert_int_equal(bins[0], 4);
    /* near the top: UINT64_MAX-3 .. UINT64_MAX in 2 bins of 2 */
    static const uint64_t t[] = { UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 2, UINT64_MAX - 3 };
    assert_int_equal(stats_histogram(t, 4, 2, bins, &lo, &width), 2);
    assert_int_equal(lo, UINT64_MAX - 3);
    assert_int_equal(width, 2);
    assert_int_equal(bins[0], 2);
    assert_int_equal(bins[1], 2);
}

static void test_rejects_bad_arguments(void **state)
{
    (void)state;
    static const uint64_t s[] = { 1 };
    uint32_t bins[1];
    uint64_t lo, width;
    assert_int_equal(stats_histogram(s, 0, 1, bins, &lo, &width), 0);
    assert_int_equal(stats_histogram(s, 1, 0, bins, &lo, &width), 0);
    assert_int_equal(stats_histogram(NULL, 1, 1, bins, &lo, &width), 0);
    assert_int_equal(stats_histogram(s, 1, 1, NULL, &lo, &width), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eleven_values_four_bins),
        cmocka_unit_test(test_bin_edges),
        cmocka_unit_test(test_fewer_bins_used_than_asked),
        cmocka_unit_test(test_all_equal_and_single),
        cmocka_unit_test(test_full_64_bit_range),
        cmocka_unit_test(test_rejects_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
