/* The 64-bit IDT and TSS (long_idt.c). */
#ifndef CK_BARE_LONG_IDT_H
#define CK_BARE_LONG_IDT_H
#include <stdint.h>

/* A 10-byte pseudo-descriptor for LGDT/LIDT in 64-bit mode (SDM Vol. 3A §3.5.1, Figure 3-11). */
struct desc_ptr64 {
    uint16_t limit;
    uint64_t base;
} __attribute__((packed));

/* A 16-byte IDT gate in IA-32e mode (SDM Vol. 3A §6.14.1, Figure 6-8) and
 * the 64-bit TSS (§7.7, Figure 7-11): the boot processor's (long_idt.c)
 * and each application processor's (smp/ap_tables.c). */
struct gate64 {
    uint16_t offset_lo, selector;
    uint8_t ist, flags;
    uint16_t offset_mid;
    uint32_t offset_hi, reserved;
} __attribute__((packed));
_Static_assert(sizeof(struct gate64) == 16, "SDM Vol. 3A Figure 6-8");

struct tss64 {
    uint32_t reserved0;
    uint64_t rsp[3];
    uint64_t reserved1;
    uint64_t ist[7];
    uint64_t reserved2;
    uint16_t reserved3, iomap;
} __attribute__((packed));
_Static_assert(sizeof(struct tss64) == 104, "SDM Vol. 3A Figure 7-11");

/* 64-bit code segment: L=1, D=0 (SDM Vol. 3A §5.2.1, §3.4.5), present,
 * DPL 0, execute/read, G=1. */
#define CODE64_DESCRIPTOR 0x00af9a000000ffffull

/* Fills the 64-bit code segment and TSS descriptors, the 16-byte gates and
 * IST1, and the pseudo-descriptors long_switch loads. */
void long_idt_init(struct desc_ptr64 *gdtr, struct desc_ptr64 *idtr);

/* What the boot processor's tables and each AP's (smp/ap_tables.c) are made
 * of: n 64-bit interrupt gates to stubs (below 4 GiB) through SEL_CODE64,
 * #DF on IST1; and a 64-bit TSS whose IST1 is df_stack_top, returning the
 * low half of its 16-byte GDT descriptor (the high half, base 63:32, is 0). */
void long_gates_fill(struct gate64 *idt, const uint32_t *stubs, unsigned n);
uint64_t long_tss64_fill(struct tss64 *t, uint32_t df_stack_top);
#endif
