/* Time-based sampling where there is no local APIC (a 486; QEMU's -cpu
 * pentium, whose CPUID has no APIC): the 8254's channel 0 as a rate
 * generator (mode 2) on IRQ 0 of the master 8259, the way the Intel survey's
 * time-based sampling used the 8254 (seed 004, section 3.3). The 8259s are
 * initialised with their vectors at VEC_IRQ0 (ICW1-ICW4, Intel 8259A data
 * sheet; the BIOS leaves IRQ 0-7 on vectors 8-15, the CPU's exceptions in
 * protected mode), IRQ 0 alone unmasked, for the sampled run only; channel
 * 2, the timer room's clock, is not touched. */
#include "sampler.h"
#include "bare/io.h"
#include "platform/fault.h"

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI 0x20
#define PIT_CH0 0x40
#define PIT_CMD 0x43
#define PIT_HZ 1193182u

static void pic_init(void)
{
    outb(PIC1_CMD, 0x11);          /* ICW1: edge, cascade, ICW4 follows */
    outb(PIC2_CMD, 0x11);
    outb(PIC1_DATA, VEC_IRQ0);     /* ICW2: vector base */
    outb(PIC2_DATA, VEC_IRQ0 + 8);
    outb(PIC1_DATA, 0x04);         /* ICW3: the slave on IRQ 2 */
    outb(PIC2_DATA, 0x02);
    outb(PIC1_DATA, 0x01);         /* ICW4: 8086 mode, normal EOI */
    outb(PIC2_DATA, 0x01);
}

void pit_sampling_start(uint32_t us)
{
    uint64_t count = (uint64_t)PIT_HZ * us / 1000000u;
    if (count < 2)
        count = 2;                 /* mode 2 needs a count of 2 or more */
    if (count > 65535)
        count = 65535;             /* 54.9 ms, the longest period */
    pic_init();
    outb(PIC2_DATA, 0xff);
    outb(PIC1_DATA, 0xfe);         /* IRQ 0 only */
    outb(PIT_CMD, 0x34);           /* channel 0, low then high byte, mode 2, binary */
    outb(PIT_CH0, (uint8_t)count);
    outb(PIT_CH0, (uint8_t)(count >> 8));
}

void pit_sampling_stop(void)
{
    outb(PIC1_DATA, 0xff);
    outb(PIC2_DATA, 0xff);
    outb(PIT_CMD, 0x30);           /* channel 0, mode 0 with no count written: it waits, silent */
}

/* IRQ 7 with nothing in the in-service register is the 8259's spurious one:
 * it takes no EOI. */
void pit_sampling_eoi(uint32_t vector)
{
    if (vector == VEC_IRQ7) {
        outb(PIC1_CMD, 0x0b);      /* OCW3: read the ISR */
        if (!(inb(PIC1_CMD) & 0x80))
            return;
    }
    outb(PIC1_CMD, PIC_EOI);
}
