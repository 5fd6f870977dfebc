/* Interrupts stay off for the whole run: IF is clear from the first
 * instruction and the 8259s are masked in boot/entry.S. Here the sources
 * that CLI does not stop are quieted too: NMI at the CMOS index port and the
 * local APIC's LVT entries (LINT1 usually delivers NMI). */
#include <stdint.h>
#include "cpu/cpu.h"
#include "interrupts.h"
#include "io.h"
#include "lib/fmt.h"
#include "bare/traps/safe.h"

#define IA32_APIC_BASE 0x1b
#define APIC_DEFAULT_BASE 0xfee00000u
#define APIC_GLOBAL_ENABLE (1u << 11)
#define LVT_MASKED (1u << 16)

static const uint16_t lvt_offsets[] = {
    0x2f0, /* CMCI */
    0x320, /* timer */
    0x330, /* thermal */
    0x340, /* performance counter */
    0x350, /* LINT0 */
    0x360, /* LINT1 */
    0x370, /* error */
};

static void mask_nmi_at_cmos(void)
{
    outb(0x70, 0x80 | (inb(0x70) & 0x7f));
}

void interrupts_quiesce(char *said, size_t size)
{
    mask_nmi_at_cmos();
    if (!cpu_has(cpu, FEAT_APIC)) {
        ksnprintf(said, size, "interrupts: IF=0, 8259 PICs masked, NMI masked at CMOS; no local APIC");
        return;
    }
    uint64_t base_msr = 0;
    uint32_t base = APIC_DEFAULT_BASE;
    int err = rdmsr_safe(IA32_APIC_BASE, &base_msr);
    if (!err) {
        if (!(base_msr & APIC_GLOBAL_ENABLE)) {
            ksnprintf(said, size, "interrupts: IF=0, PICs masked, NMI masked; local APIC globally disabled");
            return;
        }
        base = (uint32_t)base_msr & 0xfffff000u;
    }
    unsigned masked = 0;
    uint32_t version = *(volatile uint32_t *)(uintptr_t)(base + 0x30);
    unsigned max_lvt = (version >> 16) & 0xff; /* entries - 1 */
    for (unsigned i = 0; i < sizeof lvt_offsets / sizeof lvt_offsets[0]; i++) {
        uint16_t off = lvt_offsets[i];
        /* CMCI, thermal and performance-counter entries exist only on APICs with enough LVT entries. */
        if ((off == 0x2f0 && max_lvt < 6) || (off == 0x330 && max_lvt < 5) ||
            (off == 0x340 && max_lvt < 4))
            continue;
        volatile uint32_t *lvt = (volatile uint32_t *)(uintptr_t)(base + off);
        *lvt |= LVT_MASKED;
        masked++;
    }
    ksnprintf(said, size, "interrupts: IF=0, 8259 PICs masked, NMI masked at CMOS, local APIC at 0x%08x "
              "(%s): %u LVT entries masked",
                (unsigned)base, err ? "default base, no APIC_BASE MSR" : "IA32_APIC_BASE", masked);
}
