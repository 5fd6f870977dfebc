/* Counter overflow interrupts (pmu_overflow.c): for sampling. Counters are
 * the driver's general counters 0..gp_counters-1; the PMI's delivery (the
 * LVT entry, the vector) is the platform's. */
#ifndef CK_PMU_OVERFLOW_H
#define CK_PMU_OVERFLOW_H
#include <stdbool.h>
#include <stdint.h>
#include "pmu.h"

/* NULL when d's counters can interrupt on overflow (nmi: delivered as an
 * NMI, the P5's only way: its PM0 pin through an EBS socket), else why not. */
const char *pmu_overflow_refusal(const struct pmu_driver *d, bool nmi);
/* Counter c counts ev (interrupt: with its INT bit), still disabled globally. */
int pmu_overflow_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev, bool interrupt);
/* Preloads counter c to wrap after `events` more events. */
int pmu_overflow_load(struct pmu_driver *d, unsigned c, uint64_t events);
/* Bit c of counters enables general counter c (0: all stopped): one write
 * to IA32_PERF_GLOBAL_CTRL, or the P5's CESR with the programmed fields.
 * _write says which MSR and value, for code that must write it itself
 * (the sled, bare/sampler/sled.S: counting starts at that instruction). */
int pmu_overflow_enable(struct pmu_driver *d, uint64_t counters);
void pmu_overflow_enable_write(const struct pmu_driver *d, uint64_t counters, uint32_t *msr, uint64_t *value);
/* Clears the overflow bits of counters in IA32_PERF_GLOBAL_STATUS. */
int pmu_overflow_ack(struct pmu_driver *d, uint64_t counters);
int pmu_overflow_status(struct pmu_driver *d, uint64_t *status);
/* Whether sel counts one event per instruction of a sled of jumps
 * (instructions or branches retired; the P5's instructions executed), so
 * the sled can measure the skid and the handler's tail in its events. */
bool pmu_overflow_one_per_instruction(const struct pmu_driver *d, const struct pmu_eventsel *sel);

#endif
