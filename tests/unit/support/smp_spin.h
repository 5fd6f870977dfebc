/* Forced into every unit-test compile (Makefile, HCFLAGS: -include): how
 * kernel/smp's waits spin in the unit tests (kernel/smp/smp_bounds.h).
 * - The bound is a variable, (1u << 31) as in the hosted runners, so a test
 *   of a side that never answers can lower it and time out in a second.
 * - A wait yields the core every 8192 spins, because the tests' threads may
 *   share one core (smp_threads_share_one_core, smp_threads.h). */
#if !defined(CK_TEST_SMP_SPIN_H) && !defined(__ASSEMBLER__)
#define CK_TEST_SMP_SPIN_H

/* No system header here: one included before a source's own _GNU_SOURCE would
 * hide what that source asks for. uint32_t is unsigned int on every x86 ABI. */
extern unsigned int smp_threads_spin_limit;
void smp_threads_relax(void);
#define SMP_SPIN_LIMIT smp_threads_spin_limit
#define SMP_SPIN_RELAX smp_threads_relax

#endif
