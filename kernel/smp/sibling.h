/* Sibling interference: how much an SMT sibling that is busy slows a
 * body. The body (SIBLING_ADDS dependent ADDs, one cycle each on any core)
 * is timed on one thread of a core with its sibling idle in its mailbox's
 * PAUSE loop, then with the sibling running the same body without pause.
 * Siblings are processors whose APIC IDs agree above the SMT bits (SDM
 * Vol. 3A §9.9.1). */
#ifndef CK_SMP_SIBLING_H
#define CK_SMP_SIBLING_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/topology/cpu_topology.h"
#include "platform/platform.h"

#define SIBLING_ADDS 100000u
#define SIBLING_REPEATS 5

struct sibling_result {
    const char *skip;           /* why it was not measured (NULL: measured) */
    uint32_t measured_apic, sibling_apic;
    uint64_t alone, loaded;     /* min TSC ticks of SIBLING_REPEATS runs of the body */
};

void sibling_measure(const struct platform *p, const struct smp_info *s, const struct cpu_topology *t,
                     struct sibling_result *out);

#endif
