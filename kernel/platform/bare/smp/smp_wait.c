/* PIT channel 2 one-shots (mode 0, gate through port 0x61) of at most
 * 50 ms each; the remaining count is latched (command 0x80) when the wait
 * ends early, so the elapsed time is known to a PIT tick (0.84 us). */
#include "platform/bare/io.h"
#include "smp_wait.h"

#define PIT_HZ 1193182u
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PORT_B 0x61
#define GATE2 0x01
#define SPEAKER 0x02
#define OUT2 0x20
#define CHUNK_US 50000u

static uint32_t ticks_for(uint32_t us)
{
    return (uint32_t)(((uint64_t)us * PIT_HZ + 999999u) / 1000000u);
}

static uint32_t us_for(uint32_t ticks)
{
    return (uint32_t)((uint64_t)ticks * 1000000u / PIT_HZ);
}

static void one_shot(uint16_t count)
{
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~SPEAKER) & ~GATE2));
    outb(PIT_CMD, 0xb0); /* channel 2, lo/hi byte, mode 0 */
    outb(PIT_CH2, count & 0xff);
    outb(PIT_CH2, count >> 8);
    outb(PORT_B, (uint8_t)((inb(PORT_B) & ~SPEAKER) | GATE2));
}

static uint16_t remaining(void)
{
    outb(PIT_CMD, 0x80); /* latch channel 2 */
    uint8_t lo = inb(PIT_CH2);
    return (uint16_t)(lo | inb(PIT_CH2) << 8);
}

/* PAUSE in the spin (SDM Vol. 2B, PAUSE: the hint for spin-wait loops; REP
 * NOP before it existed, so it lives with the code checked apart from the
 * Pentium core). Under QEMU's TCG it also ends this processor's turn: with
 * -icount all processors share one thread, and without it a boot processor
 * polling the PIT starves the processor it waits for. */
__attribute__((section(".text.needs"), noinline)) static void spin_hint(void)
{
    __asm__ volatile("pause" ::: "memory");
}

uint32_t smp_wait_us(uint32_t us, bool (*done)(void *ctx), void *ctx)
{
    uint32_t passed = 0;
    while (passed < us) {
        uint32_t chunk = us - passed < CHUNK_US ? us - passed : CHUNK_US;
        uint16_t count = (uint16_t)ticks_for(chunk);
        one_shot(count);
        uint32_t spins = 0;
        while (!(inb(PORT_B) & OUT2)) {
            if (done && done(ctx)) {
                uint16_t left = remaining();
                return passed + us_for(left < count ? (uint32_t)(count - left) : 0);
            }
            if (++spins == 0x10000000u) /* no PIT: do not hang */
                return passed + chunk;
            spin_hint();
        }
        passed += chunk;
    }
    return passed;
}
