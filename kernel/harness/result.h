/* Results are data: one benchmark's measurement turned into everything its
 * record says (cycles and their source, nanoseconds, per-iteration
 * statistics, the expectation for this microarchitecture and the verdict).
 * The harness fills these; kernel/report/ writes them and decides nothing. */
#ifndef CK_RESULT_H
#define CK_RESULT_H
#include <stddef.h>
#include "bench.h"
#include "pmu/counters.h"
#include "measure.h"

/* Events counted for one result: the chosen ones (events=) or the
 * benchmark's own list, and core cycles when the TSC does not count them. */
struct event_counts {
    unsigned n;
    const char *names[COUNTERS_EVENTS_MAX + 1];
    char labels[COUNTERS_EVENTS_MAX + 1][PMU_LABEL_MAX]; /* names[i] points here */
    struct pmu_eventsel sel[COUNTERS_EVENTS_MAX + 1];
    int64_t x100[COUNTERS_EVENTS_MAX + 1];
    int err[COUNTERS_EVENTS_MAX + 1];
    int cycles_index; /* -1: cycles not counted */
};

/* The sample statistics scaled to one body (x100). */
struct result_stats {
    int64_t min, median, mode, mean, mean_20_80, max, stddev;
    uint64_t mode_count, outliers;
};

#define RESULT_HIST_BINS 16

/* The marks of a readable row (docs/measuring.md, "Marks"): "ok" when
 * judged stable on a trusted timer, else letters in this order. */
#define RESULT_MARK_UNTRUSTED 'U' /* the timer or platform is not trustworthy */
#define RESULT_MARK_NOT_JUDGED '?'
#define RESULT_MARK_UNSTABLE 'S'
#define RESULT_MARK_NEGATIVES 'N' /* negative differences (too many, or a negative median) */
#define RESULT_MARK_MODES 'M'     /* two or more modes, or non-linear in the copy count */
#define RESULT_MARK_DISTURBED 'D' /* a sample saw an SMI (or a context switch) */
#define RESULT_MARKS_MAX 8

struct result {
    const struct bench *b;
    const struct measurement *m;
    const struct event_counts *ec;
    uint64_t iters;               /* bodies per sample: U*L (U when cold) */
    bool have_cycles;
    int64_t cycles_x100;
    bool cycles_exact;            /* counted (a proved counter, the P5's TSC), not estimated */
    bool cycles_alongside;        /* estimated from the ADD chain timed in the same samples */
    const char *cycles_unit;      /* "exact (aperf)", "exact (counter)", "exact", "estimate", "unknown" */
    bool have_estimate;           /* with APERF: the ADD-chain estimate beside it */
    int64_t estimate_x100;
    bool estimate_disagrees;      /* by more than 2 % of the APERF count */
    bool have_ns;
    int64_t ns_x100;
    const char *time_unit;        /* "tsc" or "pit/1000" */
    bool trusted;
    /* What the row shows for the measurement's judgement (m->judge). */
    bool disturbed;               /* flag "disturbed": SMIs during the samples */
    char marks[RESULT_MARKS_MAX];
    struct result_stats per_body;
    const struct uarch_expect *expect; /* for this microarchitecture; NULL: none stated */
    const struct uarch *expect_uarch;  /* the microarchitecture whose table gave it */
    int64_t tolerance_x100;
    const char *verdict;          /* "ok", "off", "no expectation", "untrusted timing", "no cycle unit" */
    /* mem/ benchmarks: the memory walked and how it is mapped. */
    bool memory;
    uint64_t working_set, llc;    /* bytes (0: not said) */
    uint64_t page_size;           /* bytes; 0: no pages or unknown, page_why says */
    const char *page_why;
    unsigned hist_bins;           /* 0: no histogram asked for */
    uint32_t hist_count[RESULT_HIST_BINS];
    int64_t hist_from_x100[RESULT_HIST_BINS];
    /* Where the copies started (body_place.h): every run at align_offset
     * bytes past a 64-byte boundary; aligned false: not declared. */
    bool aligned;
    uint32_t align_offset;
    bool on_cpu;                  /* on= given, or the hybrid default: the processor it ran on follows */
    uint32_t cpu;                 /* its APIC ID */
    unsigned core_type;           /* CPUID 0x1A EAX[31:24] (0: not hybrid or not known) */
};

/* Everything a result record says, from one measurement. */
void result_compute(const struct bench *b, const struct measurement *m, const struct event_counts *ec,
                    struct result *r);

/* The marks for a judgement on a timer trusted or not, disturbed or not,
 * into marks[RESULT_MARKS_MAX]: "ok", or "U", "U?", "SN", ... */
void result_marks(const struct stats_judgement *j, bool trusted, bool disturbed, char *marks);

/* A mem/ result's memory: what .prepare said it walks (ctx) and the page
 * size the platform maps it with (page 0: page_why says why). */
void result_memory(struct result *r, const struct bench_ctx *ctx, uint64_t page, const char *page_why);

/* The event sweep (sweep=): one benchmark, every event of the counter table. */
#define SWEEP_MAX 128
struct event_sweep {
    const struct bench *b;
    const char *driver;
    unsigned n, passes;
    const struct pmu_event *ev[SWEEP_MAX];
    int64_t x100[SWEEP_MAX];
    int err[SWEEP_MAX];
};

#endif
