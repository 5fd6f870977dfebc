/* The IDT: 32 interrupt gates for the CPU exceptions, nothing else. With
 * interrupts off and every source masked, only exceptions (and NMI) arrive. */
#include <stdint.h>
#include "idt.h"

struct gate {
    uint16_t offset_lo, selector;
    uint8_t zero, flags;
    uint16_t offset_hi;
} __attribute__((packed));

static struct gate idt[32];
extern const uint32_t isr_stubs[32];

void idt_init(void)
{
    for (int v = 0; v < 32; v++) {
        idt[v].offset_lo = isr_stubs[v] & 0xffff;
        idt[v].offset_hi = isr_stubs[v] >> 16;
        idt[v].selector = 0x08;
        idt[v].zero = 0;
        idt[v].flags = 0x8e; /* present, ring 0, 32-bit interrupt gate */
    }
    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) idtr = { sizeof idt - 1, (uint32_t)idt };
    __asm__ volatile("lidt %0" : : "m"(idtr));
}

/* A task gate (SDM Vol. 3A §6.11, Figure 6-2): the exception switches to the
 * task whose TSS the selector names, with its own stack (§6.12.2). */
void idt_set_task_gate(unsigned vector, uint16_t tss_selector)
{
    idt[vector].offset_lo = 0;
    idt[vector].offset_hi = 0;
    idt[vector].selector = tss_selector;
    idt[vector].zero = 0;
    idt[vector].flags = 0x85; /* present, ring 0, task gate */
}
