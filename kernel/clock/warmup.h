/* AVX warm-up: the upper 128 bits of the vector units are powered down
 * while unused, and the first 256/512-bit instructions after that run at a
 * fraction of their throughput until they power up, a period of about
 * 56,000 clock cycles (~14 µs) on Skylake (Agner Fog, "The microarchitecture
 * of Intel, AMD and VIA CPUs", Skylake chapter, "Warm-up period for YMM and
 * ZMM vector instructions"; Intel 64 and IA-32 Architectures Optimization
 * Reference Manual, the section on frequency and power transitions of
 * Intel AVX instructions). A sample taken in that period measures the
 * power-up, not the instruction.
 *
 * So an AVX body is run before sampling until its runs take the same time:
 * for at least WARMUP_MIN_US of TSC time (longer than the documented
 * period, so a steady but slow warm-up phase cannot pass for settled), then
 * until WARMUP_AGREE consecutive runs are each within 1 % of the one before,
 * and never more than WARMUP_MAX_RUNS runs. */
#ifndef CK_WARMUP_H
#define CK_WARMUP_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"

#define WARMUP_MIN_US 100u
#define WARMUP_AGREE 3u
#define WARMUP_MAX_RUNS 2000u

struct warmup {
    uint64_t min_ticks;     /* WARMUP_MIN_US of the timer (0: no minimum known) */
    uint64_t spent, last;   /* ticks so far; the last run's time */
    uint32_t runs, agree;   /* runs so far; consecutive runs within 1 % */
    bool settled;           /* ended by agreement, not by the bound */
};

/* Does a body that needs these features (enum cpu_feature, as bench.h
 * keeps them) use the AVX units (AVX, AVX2, FMA,
 * F16C, AVX-512, VAES, VPCLMULQDQ)? needs ends at FEAT_NONE or after n entries. */
bool warmup_wanted(const int *needs, unsigned n);

/* Starts a warm-up for a timer of hz ticks a second (0: unknown). */
void warmup_begin(struct warmup *w, uint64_t hz);

/* One warm-up run took t ticks: false while more runs are needed. */
bool warmup_step(struct warmup *w, uint64_t t);

#endif
