/* Summary statistics of one sample set; definitions in stats.h. */
#include <stddef.h>
#include "stats.h"
#include "stats_wide.h"

/* Heapsort: O(n log n) worst case, in place, iterative, so its stack use
 * and time are bounded whatever the samples look like. */
static void sift_down(uint64_t *v, uint32_t root, uint32_t end)
{
    uint64_t moving = v[root];
    for (;;) {
        uint32_t child = 2 * root + 1;
        if (child >= end || child < root) /* child < root: index wrapped */
            break;
        if (child + 1 < end && v[child + 1] > v[child])
            child++;
        if (v[child] <= moving)
            break;
        v[root] = v[child];
        root = child;
    }
    v[root] = moving;
}

void stats_sort(uint64_t *v, uint32_t n)
{
    if (!v || n < 2)
        return;
    for (uint32_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (uint32_t end = n - 1; end > 0; end--) {
        uint64_t top = v[0];
        v[0] = v[end];
        v[end] = top;
        sift_down(v, 0, end);
    }
}

static uint64_t to_x100(struct wide v, uint32_t *saturated, uint32_t flag)
{
    bool sat = false;
    uint64_t r = wide_to_u64_sat(v, &sat);
    if (sat)
        *saturated |= flag;
    return r;
}

/* round(sum(x[first..first+count-1]) * 100 / count), half up. */
static struct wide mean_x100_of(const uint64_t *x, uint32_t first, uint32_t count)
{
    struct wide sum = wide_from_u64(0);
    for (uint32_t i = 0; i < count; i++)
        sum = wide_add_u64(sum, x[first + i]);
    return wide_div_round_u64(wide_mul_u32(sum, 100), count);
}

/* Twice the median of x[first..first+count-1] (count >= 1): exact. */
static struct wide median_x2_of(const uint64_t *x, uint32_t first, uint32_t count)
{
    return wide_add_u64(wide_from_u64(x[first + (count - 1) / 2]), x[first + count / 2]);
}

/* Population standard deviation in x100, exact up to the final rounding.
 * With d = x - min (so every d fits 64 bits) and N = n*sum(d^2) - (sum d)^2,
 * the variance is N / n^2 and sigma = sqrt(N) / n. Then
 *   round_half_up(100 sigma) = floor((200 sqrt(N) + n) / (2n))
 *                           = floor((isqrt(40000 N) + n) / (2n))
 * because floor((y + n) / m) == floor((floor(y) + n) / m) for integer n, m.
 * Bounds for n < 2^32: sum d^2 < 2^160, N < 2^192, 40000 N < 2^208. */
static struct wide stddev_x100_of(const uint64_t *x, uint32_t n)
{
    struct wide sum = wide_from_u64(0), sumsq = wide_from_u64(0);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t d = x[i] - x[0]; /* x sorted: x[0] is the minimum */
        sum = wide_add_u64(sum, d);
        sumsq = wide_add(sumsq, wide_mul_u64(d, d));
    }
    struct wide numer = wide_sub(wide_mul_u32(sumsq, n), wide_mul(sum, sum));
    struct wide root200 = isqrt_wide(wide_mul_u32(numer, 40000));
    return wide_divmod_u64(wide_add_u64(root200, n), 2 * (uint64_t)n, NULL);
}

static void find_mode(const uint64_t *x, uint32_t n, struct stats *st)
{
    /* Runs of equal values in ascending order; only a strictly longer run
     * replaces the best, so ties keep the smallest value. */
    st->mode = x[0];
    st->mode_count = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        while (j < n && x[j] == x[i])
            j++;
        if (j - i > st->mode_count) {
            st->mode = x[i];
            st->mode_count = j - i;
        }
        i = j;
    }
}

/* Quartiles and Tukey outliers. Everything is kept in exact multiples:
 * q*_x2 = 2*quartile; fences in x4 units:
 *   low  fence * 4 = 2*q1_x2 - 3*iqr_x2,  high fence * 4 = 2*q3_x2 + 3*iqr_x2. */
static void find_outliers(const uint64_t *x, uint32_t n, struct stats *st)
{
    uint32_t half = n / 2;
    struct wide q1_x2, q3_x2;
    if (half == 0) {
        q1_x2 = q3_x2 = wide_mul_u32(wide_from_u64(x[0]), 2);
    } else {
        q1_x2 = median_x2_of(x, 0, half);
        q3_x2 = median_x2_of(x, n - half, half);
    }
    st->q1_x100 = to_x100(wide_mul_u32(q1_x2, 50), &st->saturated, STATS_SAT_Q1);
    st->q3_x100 = to_x100(wide_mul_u32(q3_x2, 50), &st->saturated, STATS_SAT_Q3);

    struct wide iqr_x2 = wide_sub(q3_x2, q1_x2);
    struct wide one_x2 = wide_from_u64(2);
    if (wide_cmp(iqr_x2, one_x2) < 0)
        iqr_x2 = one_x2;
    struct wide reach_x4 = wide_mul_u32(iqr_x2, 3);
    struct wide q1_x4 = wide_mul_u32(q1_x2, 2);
    struct wide high_x4 = wide_add(wide_mul_u32(q3_x2, 2), reach_x4);

    /* Integer thresholds, so the loop compares plain samples:
     * 4x < L  <=>  x < ceil(L/4);   4x > H  <=>  x > floor(H/4).
     * A low fence at or below 0 excludes nothing (low_below = 0); a high
     * fence beyond 2^64 - 1 excludes nothing (saturates to UINT64_MAX). */
    uint64_t low_below = 0;
    if (wide_cmp(q1_x4, reach_x4) > 0)
        low_below = wide_to_u64_sat(wide_shr(wide_add_u64(wide_sub(q1_x4, reach_x4), 3), 2), NULL);
    uint64_t high_above = wide_to_u64_sat(wide_shr(high_x4, 2), NULL);

    st->outliers_low = st->outliers_high = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (x[i] < low_below)
            st->outliers_low++;
        else if (x[i] > high_above)
            st->outliers_high++;
    }
    st->outliers = st->outliers_low + st->outliers_high;
}

static void zero_stats(struct stats *st)
{
    unsigned char *p = (unsigned char *)st;
    for (size_t i = 0; i < sizeof *st; i++)
        p[i] = 0;
}

bool stats_compute(const uint64_t *samples, uint32_t n, uint64_t *scratch,
                   struct stats *st)
{
    if (!st)
        return false;
    zero_stats(st);
    if (n == 0 || !samples || !scratch)
        return false;
    if (scratch != samples)
        for (uint32_t i = 0; i < n; i++)
            scratch[i] = samples[i];
    stats_sort(scratch, n);
    const uint64_t *x = scratch;

    st->n = n;
    st->min = x[0];
    st->max = x[n - 1];
    st->median_low = x[(n - 1) / 2];
    st->median_high = x[n / 2];
    st->median_x100 = to_x100(wide_mul_u32(median_x2_of(x, 0, n), 50),
                              &st->saturated, STATS_SAT_MEDIAN);
    find_mode(x, n, st);
    st->mean_x100 = to_x100(mean_x100_of(x, 0, n), &st->saturated, STATS_SAT_MEAN);
    st->trim_first = n / 5;
    st->trim_count = n - 2 * st->trim_first;
    st->trimmed_mean_x100 = to_x100(mean_x100_of(x, st->trim_first, st->trim_count),
                                    &st->saturated, STATS_SAT_TRIMMED);
    st->stddev_x100 = to_x100(stddev_x100_of(x, n), &st->saturated, STATS_SAT_STDDEV);
    find_outliers(x, n, st);
    return true;
}
