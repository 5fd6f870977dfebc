/* The benchmarks linked into this program (the ck_benches section). */
#ifndef CK_BENCH_REGISTRY_H
#define CK_BENCH_REGISTRY_H
#include <stdbool.h>
#include <stddef.h>
#include "bench.h"

const struct bench *bench_begin(void);
const struct bench *bench_end(void);
unsigned bench_count(void);
const struct bench *bench_find(const char *name);

/* Why b cannot run on this CPU / platform (NULL when it can). The text is
 * written into buf. */
const char *bench_unmet(const struct bench *b, bool ring0, char *buf, size_t size);

/* The smp/ declarations (BENCH_SMP, bench_smp.h): the processors
 * running for them (those the start-up phase left in their mailboxes and the
 * boot one; 1 where the platform has no mailboxes or nothing was started),
 * and why b cannot run with that many on this CPU (NULL when it can): too
 * few processors ("needs two running processors, 1 here") first, then a
 * CPUID feature it needs. */
struct smp_info;
/* How many running processors b needs: its min_cpus, two at least. */
unsigned smp_bench_min_cpus(const struct smp_bench *b);
unsigned smp_bench_running(const struct platform *p, const struct smp_info *s);
const char *smp_bench_unmet(const struct smp_bench *b, unsigned running, char *buf, size_t size);

#endif
