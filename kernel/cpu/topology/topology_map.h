/* The machine's processors placed in the topology: each APIC ID (from the
 * MADT, or only this processor's own) split into package, core and thread,
 * the counts of each, and which processors share each cache level. */
#ifndef CK_CPU_TOPOLOGY_MAP_H
#define CK_CPU_TOPOLOGY_MAP_H
#include "cpu_topology.h"

#define TOPO_MAX_CPUS 64

struct topo_cpu {
    uint32_t apic_id, package, core, thread;
    const char *core_type;      /* "core"/"atom" where known (the boot processor's own) */
};

struct topology_map {
    const struct cpu_topology *t;
    const char *processors_from;  /* "MADT", "this processor only" */
    unsigned ncpus, packages, cores;
    struct topo_cpu cpus[TOPO_MAX_CPUS];
    /* group[c][i]: the sharing group of processor i for cache c: processors
     * with the same number share that cache (APIC ID >> share_bits). */
    uint32_t group[TOPO_MAX_CACHES][TOPO_MAX_CPUS];
};

void topology_map_build(const struct cpu_topology *t, const uint32_t *apic_ids, unsigned n,
                        const char *from, struct topology_map *m);

#endif
