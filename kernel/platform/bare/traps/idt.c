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
