/* The checks that decide whether a result may be called stable (issue 20).
 * Each is a pure function over numbers the harness already has: a part that
 * measures (a struct the record can carry: counts, modes, the values
 * compared) and a stats_judge_* part that raises its flag on a judgement
 * (stats_verdict.h). Integer only: the 32-bit core has no FPU registers.
 *
 * Why these checks (in our words, after standard robust statistics and the
 * nanoBench paper, Abel & Reineke, "nanoBench: A Low-Overhead Tool for
 * Running Microbenchmarks on x86 Systems", ISPASS 2020, which takes the
 * median or a trimmed mean because single runs are disturbed by interrupts
 * and other outliers):
 *   - The median survives a minority of disturbed samples (its breakdown
 *     point is 50 %), so it is the result; but a disturbance that lands in
 *     the t(U) run makes t(2U) - t(U) negative, and such samples are only
 *     the visible half of the disturbed ones. Beyond a small share the
 *     median itself is no longer a clean sample's value.
 *   - A median over too few samples says nothing about spread: stability is
 *     judged only when every ensemble has enough samples for its own median
 *     to tolerate two bad ones.
 *   - A sample must span many steps of its time base, or rounding of the
 *     reads, not the body, decides the difference.
 *   - Spread measures (standard deviation, even the median absolute
 *     deviation) assume one cluster; a body whose cost depends on state
 *     learned by the core (a predicted load) gives two, and then one
 *     "typical" number is wrong for both. Modes are found by gaps in the
 *     sorted values, and reported with their counts.
 *   - Cost per copy must not depend on the copy count (U vs 2U vs 4U): the
 *     n-versus-2n difference assumes it.
 *   - The cycle estimate divides by a reference (a dependent ADD chain);
 *     measured in the run it must agree with the start-up rate. */
#ifndef CK_STATS_CHECKS_H
#define CK_STATS_CHECKS_H
#include <stdbool.h>
#include <stdint.h>
#include "stats.h"
#include "stats_verdict.h"

/* ---- 1. Negative differences ------------------------------------------ */

/* More than this share (per mille) of negative samples: not stable. 5 %:
 * the failures had 16-25 % and 99.5 %. A disturbance that lands in
 * t(2U) makes its sample large instead of negative, so about as many
 * disturbed samples go unseen; with 5 % seen and 5 % unseen the median of
 * the differences still lies between the 44th and 56th percentile of the
 * undisturbed ones (a share e of arbitrary samples keeps the median within
 * the (0.5 - e) / (1 - e) and 0.5 / (1 - e) quantiles). */
#define STATS_NEGATIVE_MAX_PERMILLE 50u

struct stats_negatives {
    uint32_t n;             /* samples compared */
    uint32_t negative;      /* samples with later[s] < earlier[s] */
    /* The exact median of the signed differences later - earlier is below
     * zero: a median of differences clamped at zero shows 0 for it. */
    bool median_negative;
};

/* Counts the samples with later[s] < earlier[s] (t(2U) < t(U) with
 * earlier = t_u, later = t_2u; or t(U) < t(0) per copy) and finds whether
 * the signed median is negative, exactly and without sorting. n == 0 or a
 * NULL array gives all zero. */
void stats_negatives(const uint64_t *earlier, const uint64_t *later, uint32_t n,
                     struct stats_negatives *out);

/* Raises "negatives" (unstable) when negative * 1000 > 50 * n, with the
 * reason "<negative> of <n> samples had <what>" (what: "t(2U) < t(U)"), and
 * "clamped" (unstable) whenever median_negative. */
void stats_judge_negatives(const struct stats_negatives *neg, const char *what,
                           struct stats_judgement *j);

/* ---- 2. Stability across ensembles, with a minimum sample count --------- */

/* Each ensemble needs this many samples: a median of 5 still holds with two
 * disturbed samples, a median of 3 (the old limit) only with one. */
#define STATS_ENSEMBLE_MIN 5u
#define STATS_ENSEMBLES_MAX 8u

/* Splits diffs[0..n-1] into k consecutive ensembles of n/k samples (the
 * last n % k samples are left out, as before), computes each with
 * stats_compute (scratch: n values) and compares their medians: they agree
 * when the medians, or else their 95 % confidence intervals (order
 * statistics, stats_ensembles.c), come within the tolerance. The minima are
 * not compared: the minimum of a difference of two timed runs is an extreme
 * of the reads' noise, and 0 wherever a negative difference was clamped
 * (issue 31). out->min_agree is then always true.
 * Not judged ("few-samples") when n / k < STATS_ENSEMBLE_MIN or k is 0 or
 * above STATS_ENSEMBLES_MAX; "ensembles" (unstable) when they disagree; the
 * reason gives the medians' spread and the intervals' gap. `per` divides spreads for the reason (the bodies
 * in one sample, U*L; 0 or 1: as is). Returns the verdict it found
 * (stable, not judged or unstable), also folded into *j. out may be NULL. */
enum stats_verdict stats_judge_ensembles(const uint64_t *diffs, uint32_t n, uint32_t k,
                                         const struct stats_tolerance *tol, uint64_t per,
                                         uint64_t *scratch, struct stats_stability *out,
                                         struct stats_judgement *j);

/* ---- 3. Minimum timed length per sample -------------------------------- */

/* A sample (the run of U copies) spans at least this many steps of the time
 * base: each read is off by up to one step, so the U-vs-2U difference is
 * off by at most 2 steps, 0.2 % of the minimum. */
#define STATS_MIN_STEPS 1000u

struct stats_length {
    bool long_enough;
    uint64_t min_ticks;     /* min_steps * resolution (saturating) */
    uint64_t t_u;           /* the measured t(U), ticks */
    uint32_t loops;         /* the loops it was measured with */
    /* Loops for t(U) to reach min_ticks if time grows with the loops:
     * ceil(min_ticks * loops / t_u), never below `loops`; a t_u of 0 gives
     * 16 * loops (nothing to scale from: grow and measure again), and
     * UINT32_MAX when more are needed. */
    uint32_t loops_needed;
};

/* resolution: the smallest step this time base shows, in its own ticks (1
 * for the TSC, PIT_SCALE for the PIT in pit/1000 units; a caller that knows
 * its reads jitter more may pass that); 0 is taken as 1, and so are 0
 * loops. min_steps 0 means STATS_MIN_STEPS. Returns out->long_enough. */
bool stats_sample_length(uint64_t resolution, uint32_t min_steps, uint64_t t_u, uint32_t loops,
                         struct stats_length *out);

/* Raises "short" (not judged): "the timed run spans 40 ticks, below the
 * minimum 1000: 25 loops needed, 1 used" (t(U), said without the letter U,
 * which the marks use for an untrusted timer). Nothing
 * when long enough. */
void stats_judge_length(const struct stats_length *len, struct stats_judgement *j);

/* ---- 4. Modes ------------------------------------------------------------ */

#define STATS_MODES_MAX 4u

/* Sorted values split into clusters wherever two neighbours are further
 * apart than BOTH min_gap (absolute, in the values' unit: the time base's
 * resolution) and gap_permille of the larger neighbour. A cluster is a mode
 * when it holds at least min_share_permille of the values (and one value at
 * least, and min_count values when that is set); smaller clusters are
 * outliers, not modes. */
struct stats_mode_rule {
    uint64_t min_gap;
    uint32_t gap_permille;
    uint32_t min_share_permille;
    uint32_t min_count;         /* 0: no floor beyond the share */
};
/* 10 % apart and one unit; a mode holds 10 % of the values. For the
 * medians of a few reruns every rerun counts: min_share_permille 0. */
#define STATS_MODE_RULE_DEFAULT { .min_gap = 1, .gap_permille = 100, .min_share_permille = 100 }

struct stats_mode {
    uint64_t value_x100;    /* the cluster's median, x100 (exact, half up) */
    uint64_t lo, hi;        /* its smallest and largest value */
    uint32_t count;
};

struct stats_modes {
    uint32_t n;             /* values looked at */
    uint32_t count;         /* modes listed in mode[], largest count first
                             * (a tie: the smaller value first) */
    struct stats_mode mode[STATS_MODES_MAX];
    uint32_t unlisted;      /* further modes beyond STATS_MODES_MAX */
    uint32_t outside;       /* values in no listed mode */
};

/* Finds the modes of values[0..n-1] (any order; scratch holds n values
 * and may equal values, which it then sorts). Returns the number of modes
 * found (count + unlisted); 0 for n == 0 or a NULL pointer. The same
 * function serves sample sets and the medians of reruns. */
uint32_t stats_modes(const uint64_t *values, uint32_t n, const struct stats_mode_rule *rule,
                     uint64_t *scratch, struct stats_modes *out);

/* Raises "modes" (unstable) for two or more modes: "2 modes: 0.63 (120 of
 * 201), 5.00 (81 of 201)", each value divided by `per` (bodies per value,
 * U*L; 0 or 1: as is) and printed with two decimals. */
void stats_judge_modes(const struct stats_modes *m, uint64_t per, struct stats_judgement *j);

/* ---- 5. Linearity in the copy count -------------------------------------- */

#define STATS_LINEAR_POINTS_MAX 4u

/* The cost of one copy measured around `copies` copies (e.g. from t(2U) -
 * t(U) at U, at 2U and at 4U), x100, with its spread (x100, >= 0: e.g. half
 * the interquartile range of the per-copy differences). */
struct stats_point {
    uint32_t copies;
    int64_t value_x100;
    uint64_t spread_x100;
};

/* The point of one set of differences (e.g. t(4U) - t(2U) per sample, with
 * `bodies` = 2U*L bodies in each and `copies` = 2U): the median per body and
 * half the interquartile range per body as its spread (the middle half's
 * width, robust as the median is), x100, rounded half up; a median beyond
 * INT64_MAX hundredths is clamped there. bodies 0 is taken as 1. */
struct stats_point stats_point_of(const struct stats *diff, uint32_t copies, uint64_t bodies);

struct stats_linearity {
    bool judged;              /* 2..STATS_LINEAR_POINTS_MAX points were given */
    bool linear;
    /* The pair furthest outside (or, when linear, closest to) what it may
     * differ by; indexes into the points. */
    uint32_t worst_a, worst_b;
    uint64_t worst_gap_x100;  /* |value_a - value_b| */
};

/* Two points agree when |a - b| <= max(spread_a + spread_b, tol->abs_tol_x100,
 * tol->rel_tol_permille * max(|a|, |b|) / 1000), compared exactly; linear
 * when every pair agrees. k < 2 or above STATS_LINEAR_POINTS_MAX, or a NULL
 * pointer: not judged (false, *out zeroed). Returns out->linear. */
bool stats_linear(const struct stats_point *p, uint32_t k, const struct stats_tolerance *tol,
                  struct stats_linearity *out);

/* Raises "non-linear" (unstable): "non-linear in the copy count: 0.50 at 8
 * copies, 6.54 at 16, 5.01 at 32". Nothing when linear or not judged. */
void stats_judge_linear(const struct stats_point *p, uint32_t k, const struct stats_linearity *lin,
                        struct stats_judgement *j);

/* ---- 6. The cycle reference against the start-up rate -------------------- */

/* 25 %: a core's clock may move a few bins between start-up and a result
 * (turbo), which the reference taken alongside is there to follow; the
 * failure it catches, loop overhead hiding the ADDs, is 2x and more. */
#define STATS_RATE_TOL_PERMILLE 250u

struct stats_rate {
    bool agree;
    int64_t run_x100;       /* ticks per reference step in this run */
    int64_t startup_x100;   /* ticks per reference step at start-up */
};

/* Agree when both are positive and |run - startup| * 1000 <=
 * tol_permille * max(run, startup) (tol_permille 0: STATS_RATE_TOL_PERMILLE).
 * A rate of 0 or below never agrees. Returns out->agree. */
bool stats_rate_check(int64_t run_x100, int64_t startup_x100, uint32_t tol_permille,
                      struct stats_rate *out);

/* Raises "ref-rate" (unstable): "the cycle reference ran at 0.24 ticks per
 * step here, 0.62 at start-up". Nothing when they agree. */
void stats_judge_rate(const struct stats_rate *rate, struct stats_judgement *j);

#endif
