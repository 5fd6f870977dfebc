/* Microarchitectures that benchmarks state expectations for. Adding one:
 * an enum value here, its name in uarch.c, its rows in cpu_models.c, an
 * expectation macro in harness/bench.h (docs/adding-a-cpu.md). */
#ifndef CK_UARCH_H
#define CK_UARCH_H
#include "cpu.h"

enum uarch {
    UARCH_NONE,
    UARCH_486,         /* Intel family 4 */
    UARCH_P5,          /* Intel family 5: P5, P54C, P55C (MMX) */
    UARCH_P6,          /* Pentium Pro, II, III (family 6, models 1-0xB) */
    UARCH_GOLDEN_COVE, /* Golden Cove and its derivative Raptor Cove (P-cores): Alder/Raptor
                          Lake, Sapphire/Emerald Rapids */
    UARCH_ZEN,         /* AMD family 0x17, 0x19, 0x1A */
    UARCH_COUNT
};

enum uarch uarch_of(const struct cpu_info *c);
const char *uarch_name(enum uarch u);

#endif
