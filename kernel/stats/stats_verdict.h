/* How far one result can be trusted: a three-way verdict, the flags that
 * led to it and a reason a person can read.
 *
 * "Stable" is a claim and must be earned: a check that cannot decide (too
 * few samples, samples too short for the time base) gives "not judged",
 * never "stable", and evidence against the number (negative differences,
 * two modes, a cost per copy that changes with the copy count, a cycle
 * reference that disagrees with the start-up rate) gives "unstable".
 * Severity: unstable > not judged > stable; a judgement only ever worsens.
 *
 * Each flag has a short machine name (for JSON and a legend) and a legend
 * line; the reason collects the concrete words of every raised flag in the
 * order the checks ran ("200 of 201 samples had t(2U) < t(U); ..."). The
 * checks that raise them are in stats_checks.h. */
#ifndef CK_STATS_VERDICT_H
#define CK_STATS_VERDICT_H
#include <stdbool.h>
#include <stdint.h>

enum stats_verdict {
    STATS_VERDICT_STABLE = 0,
    STATS_VERDICT_NOT_JUDGED = 1,
    STATS_VERDICT_UNSTABLE = 2,
};

/* One bit each, so a result carries any set of them. */
enum stats_flag {
    STATS_FLAG_NEGATIVES = 1u << 0, /* "negatives":   too many samples with t(2U) < t(U) */
    STATS_FLAG_CLAMPED   = 1u << 1, /* "clamped":     the median was negative, shown as 0 */
    STATS_FLAG_FEW       = 1u << 2, /* "few-samples": too few samples to judge */
    STATS_FLAG_ENSEMBLES = 1u << 3, /* "ensembles":   the sample ensembles disagree */
    STATS_FLAG_SHORT     = 1u << 4, /* "short":       a sample spans too few timer steps */
    STATS_FLAG_MODES     = 1u << 5, /* "modes":       two or more clusters */
    STATS_FLAG_NONLINEAR = 1u << 6, /* "non-linear":  cost per copy changes with the copy count */
    STATS_FLAG_REF_RATE  = 1u << 7, /* "ref-rate":    cycle reference differs from the start-up rate */
};
#define STATS_FLAG_COUNT 8

/* Enough for several reasons; a longer text ends in "...". */
#define STATS_REASON_MAX 240

struct stats_judgement {
    enum stats_verdict verdict;
    uint32_t flags;                 /* STATS_FLAG_* bits raised */
    char reason[STATS_REASON_MAX];  /* "" while stable */
};

/* A fresh judgement: stable, no flags, empty reason. */
void stats_judgement_start(struct stats_judgement *j);

/* Raises `flag` with verdict v (the judgement keeps the worse of its own and
 * v) and appends the formatted reason, "; "-separated. */
void stats_judgement_raise(struct stats_judgement *j, enum stats_verdict v, enum stats_flag flag,
                           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* For the checks' reasons: x100 / per (per 0 or 1: as is), rounded half
 * up, with two decimals ("0.63"); saturates at INT64_MAX hundredths. */
void stats_reason_x100(char *buf, uint32_t size, uint64_t x100, uint64_t per);

/* "stable", "unstable", "not judged". */
const char *stats_verdict_name(enum stats_verdict v);

/* For a single flag bit: its machine name ("negatives") and its legend line;
 * NULL for anything else. Bit i of STATS_FLAG_COUNT: 1u << i. */
const char *stats_flag_name(uint32_t flag);
const char *stats_flag_legend(uint32_t flag);

#endif
