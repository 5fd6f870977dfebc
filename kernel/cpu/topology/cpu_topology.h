/* The processor topology from CPUID: how an APIC ID splits into package,
 * core and thread (SDM Vol. 3A §9.9.1 "Hierarchical Mapping of Shared
 * Resources"; AMD APM Vol. 3, CPUID Fn8000_0008 and Fn8000_001E), which
 * APIC-ID bits the processors sharing each cache have in common (leaf 4,
 * AMD Fn8000_001D), and the hybrid core type (leaf 0x1A). Decoded from the
 * raw leaves of struct cpu_info only (cpu_raw_find), so a log decodes again. */
#ifndef CK_CPU_TOPOLOGY_H
#define CK_CPU_TOPOLOGY_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"

#define TOPO_MAX_CACHES 8

struct topo_cache {
    unsigned level;            /* 1, 2, 3 */
    char type;                 /* 'd' data, 'i' instruction, 'u' unified */
    unsigned share_bits;       /* processors whose APIC IDs agree above these bits share it */
    unsigned sharing;          /* the leaf's "maximum logical processors sharing" */
};

struct cpu_topology {
    const char *source;        /* which leaves the split comes from; NULL: unknown */
    const char *why_unknown;   /* when source is NULL */
    unsigned smt_bits;         /* APIC ID bits below the core: thread within core */
    unsigned package_bits;     /* APIC ID bits below the package (core and thread) */
    uint32_t apic_id;          /* this processor's (x2APIC ID where leaf 0xB gives it) */
    bool have_apic_id;
    bool hybrid;               /* CPUID.7.0:EDX[15] */
    unsigned core_type;        /* leaf 0x1A EAX[31:24]; 0 when not hybrid */
    unsigned ncaches;
    struct topo_cache caches[TOPO_MAX_CACHES];
};

void cpu_topology_decode(const struct cpu_info *c, struct cpu_topology *t);

/* The package, core (within the package) and thread (within the core) of
 * an APIC ID under t's split. */
void cpu_topology_split(const struct cpu_topology *t, uint32_t apic_id, uint32_t *package,
                        uint32_t *core, uint32_t *thread);

/* "core" (0x40), "atom" (0x20), else NULL (SDM Vol. 2A, CPUID leaf 1AH). */
const char *cpu_core_type_name(unsigned core_type);

/* The smallest n with (1 << n) >= count (0 for count <= 1). */
unsigned topo_bits_for(uint32_t count);

#endif
