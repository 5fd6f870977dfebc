/* The interrupt controllers' state around the run: the firmware programs the
 * 8259s and the local APIC for its timer; the kernel masks them all
 * (kernel/bare/interrupts.c). Saved and loaded in xAPIC (MMIO) mode only;
 * an x2APIC firmware keeps its LVT (the kernel masks through MMIO only too).
 * Intel SDM Vol. 3A §11.4.1 (IA32_APIC_BASE), §11.5.1 (LVT), §11.8.3.1
 * (TPR), §11.5.4 (timer); 8259A data sheet (OCW1, the mask). */
#include "blob.h"

#define IA32_APIC_BASE 0x1b
#define APIC_ENABLE (1ull << 11)
#define APIC_X2 (1ull << 10)

/* TPR, SVR, LVT timer, thermal, perf, LINT0, LINT1, error, timer divide, initial count. */
static const uint16_t regs[EFI_LAPIC_REGS] = { 0x80, 0xf0, 0x320, 0x330, 0x340, 0x350, 0x360, 0x370, 0x3e0, 0x380 };

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static uint64_t apic_base(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(IA32_APIC_BASE));
    uint64_t msr = (uint64_t)hi << 32 | lo;
    if (!(msr & APIC_ENABLE) || (msr & APIC_X2))
        return 0;
    return msr & 0xffffff000ull;
}

static unsigned max_lvt(uint64_t base)
{
    return (*(volatile uint32_t *)(base + 0x30) >> 16) & 0xff;
}

/* Thermal (0x330) and performance (0x340) exist only with enough LVT entries. */
static int present(uint64_t base, uint16_t reg)
{
    return !((reg == 0x330 && max_lvt(base) < 5) || (reg == 0x340 && max_lvt(base) < 4));
}

void efi_irq_save(struct efi_irq *irq)
{
    irq->pic1 = inb(0x21);
    irq->pic2 = inb(0xa1);
    irq->apic_base = apic_base();
    for (unsigned i = 0; irq->apic_base && i < EFI_LAPIC_REGS; i++)
        if (present(irq->apic_base, regs[i]))
            irq->lapic[i] = *(volatile uint32_t *)(irq->apic_base + regs[i]);
    irq->kept = 1;
}

/* The initial count last: writing it starts the timer (§11.5.4). */
void efi_irq_load(const struct efi_irq *irq)
{
    if (!irq->kept)
        return;
    outb(0x21, irq->pic1);
    outb(0xa1, irq->pic2);
    if (!irq->apic_base || irq->apic_base != apic_base())
        return;
    for (unsigned i = 0; i < EFI_LAPIC_REGS; i++)
        if (present(irq->apic_base, regs[i]))
            *(volatile uint32_t *)(irq->apic_base + regs[i]) = irq->lapic[i];
}
