/* Integer-only statistics over timing samples (a 486SX has no FPU).
 *
 * Fixed point: every fractional value is a field named *_x100 holding
 * value * 100 rounded half up (x.xx5 -> x.xx+0.01), computed exactly from
 * 256-bit intermediates (kernel/stats_wide.h), so 64-bit samples never wrap.
 * A value whose x100 form exceeds UINT64_MAX (value > 1.8e17, i.e. two
 * years of 3 GHz ticks) is clamped to UINT64_MAX and its STATS_SAT_* bit set
 * in `saturated`; min, max and mode are plain samples and never clamp.
 *
 * Definitions (x[0..n-1] is the sample set sorted ascending):
 *   median   odd n: x[n/2]; even n: (x[n/2-1] + x[n/2]) / 2 (exact: *50).
 *   mode     the most frequent value; on a tie the SMALLEST such value.
 *   mean     sum / n.
 *   trimmed  the "20-80 % mean": mean of x[f .. n-f-1] with f = floor(n/5),
 *            i.e. floor(20 %) of the samples dropped at EACH end; nothing
 *            is dropped for n < 5, so it is always defined.
 *   stddev   POPULATION standard deviation sqrt(sum (x-mean)^2 / n): it
 *            describes the spread of the samples taken, and is 0 for n == 1.
 *   q1, q3   medians of the lower and upper halves x[0 .. n/2-1] and
 *            x[n-n/2 .. n-1] (the middle sample excluded for odd n);
 *            both equal x[0] when n == 1.
 *   outliers Tukey fences: x < q1 - 1.5*iqr or x > q3 + 1.5*iqr, with
 *            iqr = max(q3 - q1, 1). The floor of one unit keeps a 1-tick
 *            jitter from counting as an outlier when most samples are equal
 *            (iqr 0), which is common for cycle-exact bodies.
 */
#ifndef CK_STATS_H
#define CK_STATS_H
#include <stdbool.h>
#include <stdint.h>

enum stats_saturation {
    STATS_SAT_MEDIAN  = 1u << 0,
    STATS_SAT_MEAN    = 1u << 1,
    STATS_SAT_TRIMMED = 1u << 2,
    STATS_SAT_STDDEV  = 1u << 3,
    STATS_SAT_Q1      = 1u << 4,
    STATS_SAT_Q3      = 1u << 5,
};

struct stats {
    uint32_t n;
    uint64_t min, max;
    uint64_t mode;
    uint32_t mode_count;
    uint64_t median_x100;
    /* The two middle samples (equal for odd n): the exact median is their
     * mean; kept so comparisons need no rounding. */
    uint64_t median_low, median_high;
    uint64_t mean_x100;
    uint64_t trimmed_mean_x100;
    uint32_t trim_first, trim_count; /* x[trim_first .. +trim_count-1] */
    uint64_t stddev_x100;
    uint64_t q1_x100, q3_x100;
    uint32_t outliers, outliers_low, outliers_high;
    uint32_t saturated; /* STATS_SAT_* bits */
};

/* Sorts samples[0..n-1] into scratch[0..n-1] (heapsort: in place, no
 * recursion, no allocation; scratch may equal samples) and fills *st.
 * scratch stays sorted for stats_histogram(). Returns false (and zeroes
 * *st) when n == 0 or a pointer is NULL. */
bool stats_compute(const uint64_t *samples, uint32_t n, uint64_t *scratch,
                   struct stats *st);

/* In-place ascending heapsort. */
void stats_sort(uint64_t *v, uint32_t n);

/* Histogram of n samples (any order) into bins[0..nbins-1]:
 * *lo = min, *width = ceil((max - min + 1) / nbins) >= 1, and bin i counts
 * the samples in [lo + i*width, lo + (i+1)*width - 1]. Because the width is
 * rounded up, fewer than nbins bins may be needed to reach max: the number
 * of bins that cover [min, max] is returned (the rest stay 0). Returns 0
 * when n == 0, nbins == 0 or a pointer is NULL. In the one case where the
 * width would be 2^64 (nbins == 1 and the full 64-bit range) it is clamped
 * to UINT64_MAX and the single bin still counts every sample. */
uint32_t stats_histogram(const uint64_t *samples, uint32_t n, uint32_t nbins,
                         uint32_t *bins, uint64_t *lo, uint64_t *width);

/* Stability across K ensembles (separate sample sets of the same result).
 * For the minima and for the medians, spread = largest - smallest over the
 * ensembles, in x100 units; they agree when
 *     spread <= abs_tol_x100   or   spread * 1000 <= rel_tol_permille * largest
 * i.e. |a-b| <= max(abs_tol, rel_tol * max(a,b)) for the worst pair, compared
 * exactly (no rounding of the relative tolerance). Checking the extreme pair
 * suffices: if it is within tolerance every other pair is too. */
struct stats_tolerance {
    uint64_t abs_tol_x100;     /* absolute, in hundredths of a sample unit */
    uint32_t rel_tol_permille; /* relative, in 1/1000 of the larger value */
};
/* A default: one tick absolute (the counter's resolution) or 2 %. */
#define STATS_TOLERANCE_DEFAULT { .abs_tol_x100 = 100, .rel_tol_permille = 20 }

enum stats_metric { STATS_METRIC_NONE, STATS_METRIC_MIN, STATS_METRIC_MEDIAN };

struct stats_stability {
    bool agree;                   /* minima and medians both agree */
    bool min_agree, median_agree;
    uint64_t min_spread_x100;     /* saturating */
    uint64_t median_spread_x100;  /* saturating */
    /* The metric that is furthest outside (or, when all agree, closest to)
     * its tolerance, judged by spread relative to the allowed spread. */
    enum stats_metric worst;
    uint64_t worst_spread_x100;
};

/* Returns out->agree. k == 0 or a NULL pointer: false with *out zeroed. */
bool stats_stable(const struct stats *ensembles, uint32_t k,
                  const struct stats_tolerance *tol, struct stats_stability *out);

/* Per-iteration fixed point: round(total * 100 / iters), half up, exact for
 * every total (128-bit intermediate). Also serves as a ratio in x100.
 * Returns false when iters == 0 (*x100 = 0) or the result exceeds UINT64_MAX
 * (*x100 = UINT64_MAX). */
bool stats_per_iter_x100(uint64_t total, uint64_t iters, uint64_t *x100);

/* The binomial standard error sqrt(p(1-p)/n) of a share p = k/n, in
 * hundredths of a percent, rounded; 0 when n is 0 (stats_binomial.c). */
uint32_t stats_binomial_error_x100(uint32_t k, uint32_t n);

/* Signed variant for overhead removal: round((a - b) * 100 / iters) with the
 * difference taken exactly (never wraps). Halves round AWAY from zero, so a
 * negative result is the mirror of the positive one (-0.125 -> -0.13, as a
 * reader expects). Returns false when iters == 0 (*x100 = 0) or the result
 * is outside int64_t (*x100 clamped to INT64_MAX / INT64_MIN). */
bool stats_per_iter_diff_x100(uint64_t a, uint64_t b, uint64_t iters,
                              int64_t *x100);

/* round(num / den) half up, for rescaling an exact x100 value (e.g. a
 * median_x100 of per-sample totals to per-iteration). den == 0 gives
 * UINT64_MAX. Never overflows. */
uint64_t stats_div_round(uint64_t num, uint64_t den);

#endif
