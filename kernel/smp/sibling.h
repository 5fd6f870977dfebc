/* Sibling interference: how much an SMT sibling that is busy slows a
 * body. The body (one of the menu's kernels, sibling_kernels.h; default the
 * dependent ADD chain, one cycle per ADD on any core) is timed on one thread
 * of a core with its sibling idle in its mailbox's PAUSE loop, then with the
 * sibling running the antagonist (a kernel of the same menu) until told to
 * stop. sibling=BODY[,ANTAGONIST] chooses both (sibling_choice.h); `all`
 * runs the body against every antagonist in turn. Siblings are processors
 * whose APIC IDs agree above the SMT bits (SDM Vol. 3A §9.9.1). */
#ifndef CK_SMP_SIBLING_H
#define CK_SMP_SIBLING_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/topology/cpu_topology.h"
#include "platform/platform.h"
#include "sibling_choice.h"

#define SIBLING_OPS 100000u  /* operations of the body timed: 25000 rounds of 4 */
#define SIBLING_REPEATS 5

struct sibling_pair {
    uint8_t antagonist;         /* enum sibling_kernel_id */
    const char *skip;           /* why this pair was not measured (NULL: measured) */
    uint64_t alone, loaded;     /* min TSC ticks of SIBLING_REPEATS runs of the body */
};

struct sibling_result {
    const char *skip;           /* why nothing was measured (NULL: see pairs) */
    uint32_t measured_apic, sibling_apic;
    uint8_t body;               /* enum sibling_kernel_id */
    unsigned n;                 /* pairs, in the choice's order */
    struct sibling_pair pairs[SIBK_COUNT];
};

void sibling_measure(const struct platform *p, const struct smp_info *s, const struct cpu_topology *t,
                     const struct sibling_choice *c, struct sibling_result *out);

#endif
