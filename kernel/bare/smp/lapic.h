/* The boot processor's local APIC (SDM Vol. 3A §10.6: the ICR; §10.12:
 * x2APIC): the start-up IPIs and the NMI that wakes a parked processor, and
 * the sampler's LVT entry and EOI (bare/sampler, only during a sampled run). */
#ifndef CK_BARE_LAPIC_H
#define CK_BARE_LAPIC_H
#include <stdbool.h>
#include <stdint.h>

struct lapic {
    bool x2apic;                /* IA32_APIC_BASE.EXTD: the registers are MSRs 0x800+ */
    uint32_t base;              /* xAPIC: the MMIO base */
};

/* NULL when the APIC can be used, else why not. */
const char *lapic_open(struct lapic *l);
uint32_t lapic_id(const struct lapic *l);
/* Sends an IPI (ICR low word, destination APIC ID); false when the xAPIC's
 * delivery status stayed busy. */
bool lapic_send(const struct lapic *l, uint32_t dest, uint32_t icr_low);
/* Writes the 32-bit register at xAPIC offset `off` (0xb0 EOI, 0x340 LVT
 * performance counter ...): MMIO, or in x2APIC mode MSR 0x800 + off / 16
 * (§10.12.1.2). False when the MSR write faulted. */
bool lapic_write(const struct lapic *l, uint32_t off, uint32_t value);

#define ICR_NMI         0x00000400u /* delivery mode NMI (§10.6.1): the vector is ignored */
#define ICR_INIT        0x00000500u /* delivery mode INIT (§10.6.1) */
#define ICR_STARTUP     0x00000600u /* delivery mode start-up; vector = page number */
#define ICR_LEVEL_ASSERT 0x00004000u

#endif
