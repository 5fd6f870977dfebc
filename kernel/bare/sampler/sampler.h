/* Bare metal's sampler (platform/sampler.h): counter overflows through the
 * local APIC's LVT performance-counter entry (fixed vector or NMI), the
 * APIC timer in periodic mode, or the 8254's channel 0 on IRQ 0 where there
 * is no APIC (a 486, QEMU's -cpu pentium). Interrupts are enabled from
 * start to stop only, with every other source masked. */
#ifndef CK_BARE_SAMPLER_H
#define CK_BARE_SAMPLER_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/sampler.h"

extern const struct platform_sampler bare_sampler;

/* fault_dispatch's hook (traps/sample_hook.h), installed at the first arming:
 * an interrupt on a sampling vector at ip; 0 when it was handled (recorded,
 * re-armed, acknowledged; a stale one ignored), else the bound in ms a
 * loaded body overran: abandon it as the watchdog would. */
uint32_t sampler_interrupt(uint32_t vector, uint64_t ip);

/* The 8259 pair and the 8254's channel 0 (sampler_pit.c). */
void pit_sampling_start(uint32_t us);
void pit_sampling_stop(void);
void pit_sampling_eoi(uint32_t vector);

#endif
