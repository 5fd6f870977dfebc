/* Bounded waits in PIT channel 2 one-shots (time/pit.c) of at most 50 ms
 * each; the remaining count is latched when the wait ends early, so the
 * elapsed time is known to a PIT tick (0.84 us). */
#include "harness/timer.h"
#include "bare/time/pit.h"
#include "smp_wait.h"

#define CHUNK_US 50000u

static uint32_t ticks_for(uint32_t us)
{
    return (uint32_t)(((uint64_t)us * PIT_HZ + 999999u) / 1000000u);
}

static uint32_t us_for(uint32_t ticks)
{
    return (uint32_t)((uint64_t)ticks * 1000000u / PIT_HZ);
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
        pit_one_shot(count);
        uint32_t spins = 0;
        while (!pit_one_shot_done()) {
            if (done && done(ctx)) {
                uint16_t left = pit_read2();
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
