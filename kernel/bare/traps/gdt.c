/* The kernel's own GDT, replacing boot/entry.S's three-entry table: the same
 * flat selectors (0x08 code, 0x10 data) plus what the fault handling needs:
 * a not-present stack segment the self-test loads to raise #SS, and (gdt.h)
 * the task-state segments of the double-fault task. Descriptor layout: SDM
 * Vol. 3A §3.4.5 "Segment Descriptors"; TSS descriptor: §7.2.2. */
#include <stdint.h>
#include "gdt.h"

static uint64_t gdt[GDT_ENTRIES] __attribute__((aligned(8)));

uint64_t gdt_descriptor(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
    return (uint64_t)(limit & 0xffff) | (uint64_t)(base & 0xffffff) << 16 |
           (uint64_t)access << 40 | (uint64_t)((limit >> 16) & 0xf) << 48 |
           (uint64_t)(flags & 0xf) << 52 | (uint64_t)(base >> 24) << 56;
}

void gdt_set_tss(unsigned selector, const void *tss, uint32_t size)
{
    /* Access 0x89: present, DPL 0, type 9 = available 32-bit TSS (§7.2.2);
     * byte granularity. */
    gdt[selector >> 3] = gdt_descriptor((uint32_t)(uintptr_t)tss, size - 1, 0x89, 0x0);
}

void gdt_set_raw(unsigned selector, uint64_t value)
{
    gdt[selector >> 3] = value;
}

void gdt_init(void)
{
    gdt[0] = 0;
    gdt[SEL_CODE >> 3] = gdt_descriptor(0, 0xfffff, 0x9a, 0xc);  /* 32-bit code, 4 GiB */
    gdt[SEL_DATA >> 3] = gdt_descriptor(0, 0xfffff, 0x92, 0xc);  /* writable data, 4 GiB */
    /* A writable data segment with P=0: MOV SS of it raises #SS(selector)
     * (SDM Vol. 2B, MOV, protected-mode exceptions; Vol. 3A §6.15
     * Interrupt 12: "loading a stack segment that is not present"). */
    gdt[SEL_SS_ABSENT >> 3] = gdt_descriptor(0, 0xfffff, 0x12, 0xc);
    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) gdtr = { sizeof gdt - 1, (uint32_t)(uintptr_t)gdt };
    __asm__ volatile("lgdt %0\n"
                     "ljmp $" GDT_STR(SEL_CODE) ", $1f\n"
                     "1: movw $" GDT_STR(SEL_DATA) ", %%ax\n"
                     "movw %%ax, %%ds\n movw %%ax, %%es\n movw %%ax, %%fs\n"
                     "movw %%ax, %%gs\n movw %%ax, %%ss\n"
                     : : "m"(gdtr) : "eax", "memory");
}
