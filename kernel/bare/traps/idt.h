#ifndef CK_BARE_IDT_H
#define CK_BARE_IDT_H
#include <stdint.h>

/* An 8-byte IDT gate in protected mode (SDM Vol. 3A §6.11, Figure 6-2). */
struct gate32 {
    uint16_t offset_lo, selector;
    uint8_t zero, flags;
    uint16_t offset_hi;
} __attribute__((packed));

#define GATE32_INTERRUPT 0x8e /* present, ring 0, 32-bit interrupt gate */
#define GATE32_TASK 0x85      /* present, ring 0, task gate: the selector names a TSS, no offset */

/* One gate: the boot processor's IDT (idt.c) and the APs' (smp/ap_tables.c). */
void idt_gate32(struct gate32 *g, uint32_t offset, uint16_t selector, uint8_t flags);

void idt_init(void);
void idt_set_task_gate(unsigned vector, uint16_t tss_selector);
#endif
