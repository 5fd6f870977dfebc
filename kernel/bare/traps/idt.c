/* The IDT: 32 interrupt gates for the CPU exceptions, two for the
 * serial session's watchdog (vector 32, the local APIC timer; 33, the
 * APIC's spurious vector: traps/watchdog.c), and sampling's (34-47:
 * bare/sampler). With interrupts off and every
 * source masked, only exceptions (and NMI) arrive, except while the
 * watchdog is armed around a loaded body. */
#include <stdint.h>
#include "idt.h"

#include "platform/fault.h"

static struct gate32 idt[VEC_COUNT];
extern const uint32_t isr_stubs[VEC_COUNT];

void idt_gate32(struct gate32 *g, uint32_t offset, uint16_t selector, uint8_t flags)
{
    g->offset_lo = offset & 0xffff;
    g->offset_hi = offset >> 16;
    g->selector = selector;
    g->zero = 0;
    g->flags = flags;
}

void idt_init(void)
{
    for (int v = 0; v < VEC_COUNT; v++)
        idt_gate32(&idt[v], isr_stubs[v], 0x08, GATE32_INTERRUPT);
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
    idt_gate32(&idt[vector], 0, tss_selector, GATE32_TASK);
}
