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
extern unsigned smp_threads_silent, smp_threads_lost; /* SMP_THREADS_NONE: every slot behaves */

bool smp_threads_call(unsigned slot, uintptr_t (*fn)(uintptr_t), uintptr_t arg);
int smp_threads_wait(unsigned slot, uint32_t ms, uintptr_t *result);

#endif
