/* Local APIC access for the start-up IPIs: xAPIC through its MMIO page at
 * the IA32_APIC_BASE address (paging is off: the address is the pointer),
 * x2APIC through MSRs 0x802 (ID) and 0x830 (ICR) when the firmware left it
 * in x2APIC mode (SDM Vol. 3A §10.4.4, §10.6.1, §10.12.1, §10.12.9). */
#include "cpu/cpu.h"
#include "lapic.h"
#include "bare/traps/safe.h"

#define IA32_APIC_BASE 0x1b
#define APIC_BASE_EXTD (1u << 10)
#define APIC_BASE_EN (1u << 11)
#define X2APIC_ID 0x802
#define X2APIC_ICR 0x830
#define XAPIC_ID 0x20
#define XAPIC_ICR_LO 0x300
#define XAPIC_ICR_HI 0x310
#define ICR_BUSY (1u << 12)   /* delivery status: send pending */

static volatile uint32_t *reg(const struct lapic *l, uint32_t off)
{
    return (volatile uint32_t *)(uintptr_t)(l->base + off);
}

const char *lapic_open(struct lapic *l)
{
    uint64_t msr = 0;
    if (!cpu_has(cpu, FEAT_APIC))
        return "no local APIC (CPUID.1:EDX[9] clear)";
    if (rdmsr_safe(IA32_APIC_BASE, &msr) != 0)
        return "IA32_APIC_BASE (MSR 0x1B) cannot be read";
    if (!(msr & APIC_BASE_EN))
        return "the local APIC is globally disabled (IA32_APIC_BASE[11])";
    l->x2apic = (msr & APIC_BASE_EXTD) != 0;
    if (!l->x2apic && (msr >> 32) != 0) /* x2APIC mode uses no MMIO page (§10.12.1.2) */
        return "the local APIC's MMIO page is above 4 GiB";
    l->base = (uint32_t)msr & 0xfffff000u;
    return 0;
}

uint32_t lapic_id(const struct lapic *l)
{
    uint64_t v = 0;
    if (l->x2apic)
        return rdmsr_safe(X2APIC_ID, &v) == 0 ? (uint32_t)v : 0;
    return *reg(l, XAPIC_ID) >> 24;
}

bool lapic_send(const struct lapic *l, uint32_t dest, uint32_t icr_low)
{
    if (l->x2apic) /* one 64-bit write; no delivery status (§10.12.9) */
        return wrmsr_safe(X2APIC_ICR, (uint64_t)dest << 32 | icr_low) == 0;
    *reg(l, XAPIC_ICR_HI) = dest << 24;
    *reg(l, XAPIC_ICR_LO) = icr_low; /* this write sends */
    for (uint32_t spins = 0; spins < 1000000u; spins++)
        if (!(*reg(l, XAPIC_ICR_LO) & ICR_BUSY))
            return true;
    return false;
}

bool lapic_write(const struct lapic *l, uint32_t off, uint32_t value)
{
    if (l->x2apic)
        return wrmsr_safe(0x800 + (off >> 4), value) == 0;
    *reg(l, off) = value;
    return true;
}
