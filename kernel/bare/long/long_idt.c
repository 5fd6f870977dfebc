/* The 64-bit IDT and TSS. Once EFER.LME and CR0.PG are on, every interrupt
 * and exception goes through 16-byte IDT gates whose target is a 64-bit code
 * segment, even while compatibility-mode code runs (SDM Vol. 3A §6.14.1,
 * Figure 6-8); the handlers (long_isr.S) turn the 64-bit frame into the
 * 32-bit core's and call the same fault_dispatch in compatibility mode.
 * Task gates do not exist in IA-32e mode: the double fault gets its own
 * stack through the Interrupt Stack Table instead (§6.14.5), IST1 of the
 * 64-bit TSS (§7.7, Figure 7-11). */
#include <stdint.h>
#include "long_idt.h"
#include "platform/fault.h"
#include "lib/kstring.h"
#include "bare/traps/gdt.h"

static struct gate64 idt64[VEC_COUNT] __attribute__((aligned(16)));
static struct tss64 tss64 __attribute__((aligned(128)));
static uint8_t df_stack64[16384] __attribute__((aligned(16)));
extern const uint32_t isr64_stubs[VEC_COUNT]; /* 0-31 exceptions, 32-33 the watchdog, 34-47 sampling */

void long_gates_fill(struct gate64 *idt, const uint32_t *stubs, unsigned n)
{
    for (unsigned v = 0; v < n; v++) {
        idt[v].offset_lo = stubs[v] & 0xffff;
        idt[v].offset_mid = stubs[v] >> 16;
        idt[v].offset_hi = 0;
        idt[v].selector = SEL_CODE64;
        idt[v].ist = v == 8 ? 1 : 0; /* #DF on IST1 */
        idt[v].flags = 0x8e;         /* present, DPL 0, 64-bit interrupt gate */
        idt[v].reserved = 0;
    }
}

uint64_t long_tss64_fill(struct tss64 *t, uint32_t df_stack_top)
{
    kmemset(t, 0, sizeof *t);
    t->ist[0] = df_stack_top;
    t->iomap = sizeof *t; /* no I/O permission bitmap */
    /* A 16-byte system descriptor (§7.2.3, Figure 7-4): its low half has the
     * 32-bit layout with type 9, an available 64-bit TSS in IA-32e mode. */
    return gdt_descriptor((uint32_t)(uintptr_t)t, sizeof *t - 1, 0x89, 0);
}

void long_idt_init(struct desc_ptr64 *gdtr, struct desc_ptr64 *idtr)
{
    gdt_set_raw(SEL_CODE64, CODE64_DESCRIPTOR);
    long_gates_fill(idt64, isr64_stubs, VEC_COUNT);
    gdt_set_raw(SEL_TSS64, long_tss64_fill(&tss64, (uint32_t)(uintptr_t)(df_stack64 + sizeof df_stack64)));
    gdt_set_raw(SEL_TSS64 + 8, 0);
    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) now;
    __asm__ volatile("sgdt %0" : "=m"(now));
    gdtr->limit = now.limit;
    gdtr->base = now.base;
    idtr->limit = sizeof idt64 - 1;
    idtr->base = (uint32_t)(uintptr_t)idt64;
}
