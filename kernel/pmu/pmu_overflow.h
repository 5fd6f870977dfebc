/* Counter overflow interrupts (pmu_overflow.c): for sampling. Counters are
 * the driver's general counters 0..gp_counters-1; the PMI's delivery (the
 * LVT entry, the vector) is the platform's. */
#ifndef CK_PMU_OVERFLOW_H
#define CK_PMU_OVERFLOW_H
#include <stdbool.h>
#include <stdint.h>
#include "pmu.h"

/* NULL when d's counters can interrupt on overflow, else why not. */
const char *pmu_overflow_refusal(const struct pmu_driver *d);
/* Counter c counts ev (interrupt: with its INT bit), still disabled globally. */
int pmu_overflow_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev, bool interrupt);
/* Preloads counter c to wrap after `events` more events. */
int pmu_overflow_load(struct pmu_driver *d, unsigned c, uint64_t events);
/* IA32_PERF_GLOBAL_CTRL: bit c enables general counter c (0: all stopped). */
int pmu_overflow_enable(struct pmu_driver *d, uint64_t counters);
/* Clears the overflow bits of counters in IA32_PERF_GLOBAL_STATUS. */
int pmu_overflow_ack(struct pmu_driver *d, uint64_t counters);
int pmu_overflow_status(struct pmu_driver *d, uint64_t *status);

#endif
