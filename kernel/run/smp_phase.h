/* The run's start-up phase (smp_phase.c). */
#ifndef CK_RUN_SMP_PHASE_H
#define CK_RUN_SMP_PHASE_H
#include "platform/platform.h"

/* Starts the processors (madt_ids: the usable ones the platform lists,
 * listed_by names the list: "the MADT", "sched_getaffinity", NULL: none;
 * bsp: the boot processor's APIC ID from its CPUID) as cpus= allows;
 * writes the smp record and notes. */
void smp_phase(const struct platform *p, const uint32_t *madt_ids, unsigned n, const char *listed_by,
               uint32_t bsp);
/* What the phase started (n == 0 before it ran or when nothing was started). */
const struct smp_info *smp_started(void);

#endif
