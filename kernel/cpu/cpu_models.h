/* The processor model table (cpu_models.c): vendor, family, model (and
 * where it matters stepping and processor type) to name and facts. The
 * microarchitecture is kernel/uarch/'s. */
#ifndef CK_CPU_MODELS_H
#define CK_CPU_MODELS_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu.h"

/* What other rooms need to know about a model, beyond its features. */
enum cpu_model_fact {
    CPU_TSC_CORE_CLOCK = 1 << 0, /* the TSC counts core clocks (P5: before invariant TSCs), so
                                    ticks are exact cycles (SDM vol. 3B §18.17) */
    CPU_P6_PMU = 1 << 1,         /* P6-family counters without architectural perfmon
                                    (SDM vol. 3B §18.22; later cores report CPUID leaf 0AH) */
};

#define CPU_ANY_TYPE 0xff

struct cpu_model {
    uint8_t vendor;                       /* enum cpu_vendor */
    uint8_t family, first, last;          /* display family; display models first..last */
    uint8_t stepping_first, stepping_last;
    uint8_t type;                         /* CPUID processor type, or CPU_ANY_TYPE */
    const char *name;                     /* NULL: no name of its own (facts only) */
    uint8_t facts;                        /* enum cpu_model_fact */
    const char *llvm;                     /* LLVM's -mcpu name for it (LLVM 16's list, `llvm-mca
                                             -mcpu=help`), NULL: none. cyclekit's one map from
                                             identity to LLVM: kernel/uarch takes its
                                             expectation table by it, and the host
                                             (cyclekit/llvm_cpus.py) reads the same rows */
};

const struct cpu_model *cpu_model_lookup(enum cpu_vendor vendor, unsigned family, unsigned model,
                                         unsigned stepping, unsigned type);
const struct cpu_model *cpu_model_of(const struct cpu_info *c);
bool cpu_fact(const struct cpu_info *c, enum cpu_model_fact fact);

#endif
