/* The core named by its features (cpu_core.c): a hypervisor can report any
 * model number (a KVM guest on a Granite Rapids host says family 6 model
 * 0xA7), but not instructions the core lacks. When the features contradict
 * the core the model number names, the features name it, or, where they fit
 * several cores alike, the name is "unknown" with the candidates. */
#ifndef CK_CPU_CORE_H
#define CK_CPU_CORE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu.h"

/* The CPUID bits that tell cores apart (cpu_core.c cites each). */
enum cpu_core_trait {
    CT_AVX2 = 1u << 0,
    CT_AVX512F = 1u << 1,
    CT_AVX512VBMI2 = 1u << 2,
    CT_AVX512VNNI = 1u << 3,
    CT_VP2INTERSECT = 1u << 4,
    CT_HYBRID = 1u << 5,
    CT_AVX512FP16 = 1u << 6,
    CT_AMX = 1u << 7,
    CT_AVXVNNI = 1u << 8,
    CT_AVX512BF16 = 1u << 9,
    CT_AMXFP16 = 1u << 10,
    CT_AVXIFMA = 1u << 11,
    CT_PREFETCHI = 1u << 12,
    CT_AVX10 = 1u << 13,
    CT_CLWB = 1u << 14,
};
#define CT_COUNT 15

/* How cpu_info.name was decided. */
enum cpu_named_by {
    CPU_NAMED_BY_MODEL,    /* the model table (cpu_models.c), the features agreeing */
    CPU_NAMED_BY_FEATURES, /* the model number contradicts the features, which fit one core */
    CPU_NAMED_UNDECIDED,   /* contradicted, and the features fit several cores or none: "unknown" */
};

/* A core as its features show it. It fits a CPU of its vendor when the CPU has
 * every `sure` trait, one of `any` (when set), and no trait of the vendor's
 * discriminating set outside `may`. */
struct cpu_core_class {
    uint8_t vendor;         /* enum cpu_vendor */
    uint8_t family;         /* AMD: the family it is sold as (tried first); Intel: 0 */
    const char *name;       /* "Granite Rapids": products, as a candidate */
    const char *core;       /* "Redwood Cove": the microarchitecture */
    const char *llvm;       /* LLVM 16's -mcpu name with a scheduling model: its own, or the
                               nearest when `nearest` names the one LLVM 16 lacks */
    bool nearest;           /* LLVM 16 has no CPU of this core; `llvm` is the nearest */
    const char *rows[4];    /* the model table's rows of this core: LLVM or row names */
    uint32_t sure, any, may;
};

extern const struct cpu_core_class cpu_core_classes[];
extern const unsigned cpu_core_class_count;

/* The traits c has (CPUID leaf 7 subleaves 0 and 1, from c's raw leaves). */
uint32_t cpu_core_traits(const struct cpu_info *c);
const char *cpu_core_trait_name(uint32_t trait);
bool cpu_core_fits(const struct cpu_core_class *k, const struct cpu_info *c);
/* Decides c->name, c->named_by and c->core_fits (cpu_decode calls it after the
 * model table's name). */
void cpu_decode_core(struct cpu_info *c);
/* The class the features named (CPU_NAMED_BY_FEATURES), else NULL. */
const struct cpu_core_class *cpu_core_named(const struct cpu_info *c);
/* LLVM's CPU for c's core: the model table's column when the model number
 * named it, the class's when the features did, NULL when undecided. */
const char *cpu_core_llvm(const struct cpu_info *c);
/* "model number", "features", "undecided". */
const char *cpu_named_by_name(unsigned named_by);
/* Why the model number was not taken at its word, into buf ("" when it was). */
void cpu_core_why(const struct cpu_info *c, char *buf, size_t size);

#endif
