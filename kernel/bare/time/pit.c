/* The 8254 PIT's channel 2 (gate through port 0x61, no interrupt): a clock
 * independent of the CPU, for calibrating the TSC and as the time base of
 * CPUs without one. */
#include <stdint.h>
#include "cpu/cpu_native.h"
#include "bare/io.h"
#include "pit.h"
#include "harness/timer.h"

#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PORT_B 0x61
#define GATE2 0x01
#define SPEAKER 0x02
#define OUT2 0x20

void pit_one_shot(uint16_t count)
{
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~SPEAKER) & ~GATE2)); /* gate low: hold */
    outb(PIT_CMD, 0xb0);                                        /* ch2, lo/hi, mode 0 */
    outb(PIT_CH2, count & 0xff);
    outb(PIT_CH2, count >> 8);
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~SPEAKER) | GATE2));   /* gate high: count */
}

bool pit_one_shot_done(void)
{
    return (inb(PORT_B) & OUT2) != 0;
}

/* One-shot (mode 0) of `count` PIT ticks; returns the TSC ticks it took. */
static uint64_t tsc_over_pit(uint16_t count)
{
    pit_one_shot(count);
    uint64_t start = cpu_rdtsc_native();
    uint32_t spins = 0;
    while (!pit_one_shot_done()) {
        if (++spins == 0x01000000u) /* no PIT at all: give up, do not hang */
            return 0;
        /* A few register-only steps between port reads: the end is seen at
         * most ~0.5 us later on a 60 MHz Pentium (~10 ppm of a window, below
         * the port read's own ~1 us), while an emulator that pays for every
         * port access (QEMU -icount) spends a fraction of the time. */
        for (volatile uint32_t d = 0; d < 16; d++)
            ;
    }
    return cpu_rdtsc_native() - start;
}

bool pit_calibrate_tsc(uint64_t *hz, const char **source, bool brief)
{
    /* 50 ms windows, three times; the median rejects one disturbed window.
     * brief (an emulator's clocks): one window of 20 ms. */
    const int windows = brief ? 1 : 3;
    const uint16_t count = brief ? 23864 : 59659; /* 20.000 or 50.000 ms at 1.193182 MHz */
    uint64_t t[3];
    for (int i = 0; i < windows; i++) {
        t[i] = tsc_over_pit(count);
        if (!t[i])
            return false;
    }
    for (int i = 0; i < windows - 1; i++)
        for (int j = i + 1; j < windows; j++)
            if (t[j] < t[i]) {
                uint64_t x = t[i];
                t[i] = t[j];
                t[j] = x;
            }
    *hz = t[windows / 2] * PIT_HZ / count;
    *source = brief ? "PIT channel 2 (1 x 20 ms: an emulator's clocks)" : "PIT channel 2 (3 x 50 ms)";
    return true;
}

void pit_free_run(void)
{
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~SPEAKER) | GATE2));
    outb(PIT_CMD, 0xb4); /* ch2, lo/hi, mode 2 (rate generator), binary */
    outb(PIT_CH2, 0);    /* reload 65536 */
    outb(PIT_CH2, 0);
}

/* The running count of channel 2 (a down counter), latched so the two bytes
 * belong together (8254 data sheet, counter latch command). */
uint16_t pit_read2(void)
{
    outb(PIT_CMD, 0x80); /* ch2, counter latch */
    uint8_t lo = inb(PIT_CH2);
    uint8_t hi = inb(PIT_CH2);
    return (uint16_t)(lo | (hi << 8));
}
