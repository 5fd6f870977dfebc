/* The 64-bit IDT and TSS (long_idt.c). */
#ifndef CK_BARE_LONG_IDT_H
#define CK_BARE_LONG_IDT_H
#include <stdint.h>

/* A 10-byte pseudo-descriptor for LGDT/LIDT in 64-bit mode (SDM Vol. 3A §3.5.1, Figure 3-11). */
struct desc_ptr64 {
    uint16_t limit;
    uint64_t base;
} __attribute__((packed));

/* Fills the 64-bit code segment and TSS descriptors, the 16-byte gates and
 * IST1, and the pseudo-descriptors long_switch loads. */
void long_idt_init(struct desc_ptr64 *gdtr, struct desc_ptr64 *idtr);
#endif
