/* Core-to-core latency: one cache line bounced between two processors,
 * for every ordered pair of the started ones. The pinging processor times
 * ROUNDS round trips with its own TSC (no cross-processor clock is needed);
 * the min and median of them are kept. Two variants: `rmw`, each side a
 * LOCK XADD on the line, and `store`, a plain store answered by a plain
 * store after a load sees it (SDM Vol. 3A §8.2: the memory ordering that
 * makes both work on x86). */
#ifndef CK_SMP_C2C_H
#define CK_SMP_C2C_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/platform.h"

#define C2C_MAX SMP_MAX_CPUS /* processors in one matrix: every started one */
#define C2C_ROUNDS 32
#define C2C_WARMUP 4

enum c2c_cell { C2C_EMPTY, C2C_MEASURED, C2C_TIMEOUT, C2C_LOST };

struct c2c_matrix {
    const char *variant;        /* "rmw" or "store" */
    unsigned n;                 /* processors in the matrix */
    uint32_t apic_id[C2C_MAX];
    unsigned slot[C2C_MAX];     /* their smp_info slots */
    enum c2c_cell cell[C2C_MAX][C2C_MAX];   /* [ping][pong]; the diagonal stays empty */
    uint64_t min[C2C_MAX][C2C_MAX], median[C2C_MAX][C2C_MAX]; /* TSC ticks per round trip */
    uint64_t hz;                /* the TSC's calibrated rate (0: unknown: no ns) */
    unsigned lost;              /* processors abandoned (faulted or hung) */
    uint32_t lost_apic[C2C_MAX];
};

/* Fills m for the started processors of s (the boot one included). */
void c2c_measure(const struct platform *p, const struct smp_info *s, bool rmw, uint64_t hz,
                 struct c2c_matrix *m);

#endif
