/* The real clock: IA32_APERF (MSR 0xE8) counts the core's actual clock
 * cycles while it runs (C0), IA32_MPERF (MSR 0xE7) counts at a fixed
 * reference rate; CPUID.06H:ECX[bit 0] says both exist. Intel SDM Vol. 3B
 * §15.2 (Hardware-Coordination Feedback, "IA32_APERF/IA32_MPERF"); AMD APM
 * Vol. 2 §17.3 (MPERF increments at the P0 frequency, the rate of the
 * invariant TSC; APERF at the actual frequency).
 *
 * The harness reads both around each timed run of U and of 2U copies
 * (measure.c): APERF(2U) - APERF(U) is the core cycles of U*L bodies by the
 * same difference that removes the loop and the counter reads from time, so
 * it is a count, not an estimate; APERF/MPERF over the samples gives the
 * effective core frequency (TSC rate x dAPERF/dMPERF). */
#ifndef CK_APERF_H
#define CK_APERF_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "platform/msr.h"

#define MSR_IA32_MPERF 0xE7u
#define MSR_IA32_APERF 0xE8u
/* Samples kept per measurement: at least the harness's MEASURE_SAMPLES_MAX
 * (measure.c asserts it). */
#define APERF_SAMPLES_MAX 2001

/* Can this run read the real clock? Decided once (aperf_probe). */
struct aperf_state {
    bool usable;
    const char *why;          /* why not (or how it was proved) */
    int fault;                /* the fault code of the failed read, 0: none */
};

extern struct aperf_state aperf;

/* Usable where CPUID leaf 6 says so and both MSRs read through msr without
 * a fault. Binds msr for the reads below. */
void aperf_probe(const struct cpu_info *c, const struct msr_ops *msr);

/* One measurement's real clock, per body. */
struct aperf_result {
    bool have;                /* cycles_x100 and freq are valid */
    const char *why;          /* why not (NULL when have) */
    int64_t cycles_x100;      /* median of APERF(2U) - APERF(U), per body */
    bool freq_known;          /* the TSC rate is known */
    uint32_t freq_mhz;        /* effective core frequency over all samples */
    uint32_t freq_lo_mhz, freq_hi_mhz; /* lowest/highest of the sample thirds */
    bool freq_changed;        /* the thirds differ by more than 1 % */
};

/* The sampling side, called by measure.c: forget the last samples; read
 * both MSRs before a timed run; after it, keep the deltas of sample s,
 * variant 0 (U copies) or 1 (2U copies). No-ops where unusable. */
void aperf_start(void);
void aperf_before(void);
void aperf_after(uint32_t s, unsigned variant);

/* The result from samples 0..n-1 of U*L = iters bodies; tsc_hz 0: the
 * frequency is unknown. */
void aperf_finish(uint32_t n, uint64_t iters, uint64_t tsc_hz, struct aperf_result *out);

/* Per-body cycles from APERF against an estimate: true when they differ by
 * more than 2 % of the APERF count. */
bool aperf_disagrees(int64_t aperf_x100, int64_t estimate_x100);

#endif
