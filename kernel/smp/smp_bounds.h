/* How every measurement between processors bounds its waits, so a side that
 * never answers ends a measurement as a timeout or an abandoned processor,
 * never a hang. */
#ifndef CK_SMP_BOUNDS_H
#define CK_SMP_BOUNDS_H
#include <stdbool.h>
#include <stdint.h>

/* Spins of one wait: about a second, generous for a loaded emulator. The host
 * unit tests and the hosted runners raise it (Makefile, THREAD_SPIN_LIMIT;
 * tests/unit/support/smp_spin.h):
 * there the other side is a thread that a loaded machine may leave
 * unscheduled for longer than 2^28 spins of a native core (about 0.1 s),
 * which made a measured pair a timeout. */
#ifndef SMP_SPIN_LIMIT
#define SMP_SPIN_LIMIT (1u << 28)
#endif
#define SMP_WAIT_MS 5000u              /* smp_wait's bound for a posted side to finish */
#define SMP_SLOT_BOOT ((unsigned)-1)   /* the boot processor's slot: it runs its side itself */

/* Every 8192 spins of a wait, SMP_SPIN_RELAX() where a build defines it:
 * the host unit tests may run both sides as threads on one core
 * (tests/unit/support/smp_spin.h), where a waiting side must give the core
 * to the other or nothing moves. Elsewhere nothing: a processor spins. */
#ifdef SMP_SPIN_RELAX
#define smp_spin_relax(spins) do { if (((spins) & 8191u) == 8191u) SMP_SPIN_RELAX(); } while (0)
#else
#define smp_spin_relax(spins) do { (void)(spins); } while (0)
#endif

/* Spins until *word holds value (true) or SMP_SPIN_LIMIT spins pass (false). */
static inline bool smp_spin_until(const volatile uint32_t *word, uint32_t value)
{
    for (uint32_t spins = 0; spins < SMP_SPIN_LIMIT; spins++) {
        if (*word == value)
            return true;
        smp_spin_relax(spins);
    }
    return false;
}

#endif
