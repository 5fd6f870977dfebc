/* Sampling (issue 32): where the cycles go inside a body. While a body
 * loops, an interrupt comes every `period` events of a counter (event-based
 * sampling, EBS: the counter is preloaded with -period and interrupts when it
 * wraps) or every `period` microseconds of a timer (time-based sampling,
 * TBS), and its handler records the interrupted instruction pointer with
 * sample_hit() (harness/sample.h). The Intel survey of performance tools
 * (VTune's "Sample After" value, EBS and TBS; seed 004, section 3.3) and
 * SDM Vol. 3B §20.6.3 / §21.2 (PMI through the local APIC's LVT
 * performance-counter entry) describe both.
 *
 * A platform fills the hooks of struct platform_sampler (platform.h); a NULL
 * hook is a sampling it cannot do, and `why` hooks say why in a sentence. */
#ifndef CK_PLATFORM_SAMPLER_H
#define CK_PLATFORM_SAMPLER_H
#include <stdbool.h>
#include <stdint.h>

struct pmu_driver;
struct pmu_eventsel;

enum sample_source { SAMPLE_OFF, SAMPLE_EVENT, SAMPLE_TIME };

struct sample_spec {
    enum sample_source source;
    const struct pmu_eventsel *sel; /* SAMPLE_EVENT: what the counter counts (the run's driver's) */
    struct pmu_driver *drv;         /* SAMPLE_EVENT: the proven driver (counters.drv) */
    uint64_t period;                /* events (SAMPLE_EVENT) or microseconds (SAMPLE_TIME) */
    bool period_given;              /* false: the parser's default (a platform whose event
                                       counts in other units chooses its own) */
    bool nmi;                       /* deliver as NMI (the LVT entry's NMI mode; a P5's PM0 pin
                                       wired to NMI by an EBS socket) */
    uint32_t max_samples;           /* the handler stops re-arming after this many */
    uint32_t bound_ms;              /* a loaded body's watchdog bound (0: none): a platform whose
                                       sampling timer is the watchdog's own enforces it itself */
};

/* How a sampled run ended, from the platform. */
struct sample_end {
    const char *delivery;  /* "PMI, local APIC vector 34", "perf_event cpu-clock", "PIT IRQ 0" ... */
    uint32_t taken;        /* interrupts taken (each one sample_hit) */
    bool storm;            /* an interrupt came inside the handler's own return: re-arming stopped */
    bool capped;           /* max_samples reached: re-arming stopped */
    const char *stopped;   /* NULL, or why sampling stopped before the run ended (a sentence) */
    uint64_t handler_lo, handler_hi; /* the handler's own code (0, 0: not known), for samples
                                        that land in it (a storm) */
    uint64_t period;       /* the period used when not the one asked (0: as asked), in unit */
    const char *unit;      /* its unit then: "ns" for a Linux clock event */
};

/* One step of a cycle-by-cycle run: the cycles counter preloaded with -k
 * interrupted, and the handler read the instructions retired and where. */
struct cycle_step {
    uint32_t k;            /* cycles after the counters were enabled */
    uint64_t retired;      /* instructions retired by then (the handler's own removed) */
    uint64_t ip;           /* the interrupted instruction pointer */
    bool taken;            /* the interrupt came within the run */
};

struct platform_sampler {
    /* NULL when spec can be sampled here, else why not (a sentence naming
     * what is missing: "no local APIC", "the P5's counters interrupt only
     * through its PM0 pin, which needs an EBS socket: sample=...:nmi"). */
    const char *(*refusal)(const struct sample_spec *spec);
    /* Arms it: interrupts may come from the next instruction on; the
     * benchmark's run follows. NULL, or why it could not. */
    const char *(*start)(const struct sample_spec *spec);
    /* Disarms (interrupts off again, every MSR and LVT entry as before) and
     * says how the run went. Safe to call after a fault, and twice. */
    void (*stop)(struct sample_end *end);
    /* Moves what the interrupts recorded so far into the harness's buffer
     * (sample_hit), for a platform whose samples wait in a buffer of its own
     * (the hosted runner's perf ring) until then; the harness calls it after
     * each run. NULL where the handler calls sample_hit itself. */
    void (*collect)(void);
    /* The skid of the delivery the last start() armed, as start() measured
     * it: instructions retired between the counter's overflow and the
     * interrupted instruction (0: it interrupts right after the event that
     * overflowed it). False, with *why, where it could not be measured
     * (time-based, no instructions event). May be NULL. */
    bool (*skid)(int32_t *insns, const char **why);
    /* One step of a cycle-by-cycle run: counter `cycles` preloaded to
     * interrupt after k events, `insns` counting from 0, both enabled, then
     * run(ctx); the interrupt's handler reads the instructions retired and
     * the interrupted instruction pointer into *out. NULL, or why not. May
     * be NULL (no cycles counter with PMIs here). */
    const char *(*cycle_step)(struct pmu_driver *drv, const struct pmu_eventsel *cycles,
                              const struct pmu_eventsel *insns, uint32_t k, void (*run)(void *ctx),
                              void *ctx, struct cycle_step *out);
};

#endif
