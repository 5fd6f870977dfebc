/* Started processors as host threads, for the unit tests of kernel/smp/:
 * smp_call starts a thread running the posted function, smp_wait joins it.
 * A slot named silent takes the work and never runs it (a hung processor:
 * SMP_BUSY); one named lost runs it and then reports a fault (SMP_LOST).
 * Real concurrency, so a handshake that cannot end hangs the test. */
#ifndef CK_TEST_SMP_THREADS_H
#define CK_TEST_SMP_THREADS_H
#include <stdbool.h>
#include <stdint.h>

#define SMP_THREADS_NONE 99u
/* smp_threads_spin_limit (smp_spin.h): the hosted runners' bound, and the one
 * a test of a silent side sets so that the wait it proves bounded gives up in
 * well under a second instead of 2^31 spins (minutes beside a busy neighbour,
 * each 8192 spins handing it the core). */
#define SMP_THREADS_SPINS (1u << 31)
#define SMP_THREADS_GIVE_UP (1u << 20)
extern unsigned smp_threads_silent, smp_threads_lost; /* SMP_THREADS_NONE: every slot behaves */

bool smp_threads_call(unsigned slot, uintptr_t (*fn)(uintptr_t), uintptr_t arg);
int smp_threads_wait(unsigned slot, uint32_t ms, uintptr_t *result);
/* Keeps this process and the threads it starts on the core it runs on now.
 * Where a machine's cores are virtual and not run at once (this project's
 * VMs), one ping-pong between two threads on two cores costs about a
 * millisecond, however idle the machine; on one core each wait hands the
 * core to the other side (smp_spin.h) in microseconds. */
void smp_threads_share_one_core(void);

#endif
