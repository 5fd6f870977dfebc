/* The IDT: 32 interrupt gates for the CPU exceptions, and two for the
 * serial session's watchdog (vector 32, the local APIC timer; 33, the
 * APIC's spurious vector: traps/watchdog.c). With interrupts off and every
 * source masked, only exceptions (and NMI) arrive, except while the
 * watchdog is armed around a loaded body. */
#include <stdint.h>
#include "idt.h"

struct gate {
    uint16_t offset_lo, selector;
    uint8_t zero, flags;
    uint16_t offset_hi;
} __attribute__((packed));

static struct gate idt[34];
extern const uint32_t isr_stubs[32];
extern const char isr_32[], isr_33[];

void idt_init(void)
{
    for (int v = 0; v < 34; v++) {
        uint32_t stub = v < 32 ? isr_stubs[v] : (uint32_t)(uintptr_t)(v == 32 ? isr_32 : isr_33);
        idt[v].offset_lo = stub & 0xffff;
        idt[v].offset_hi = stub >> 16;
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
