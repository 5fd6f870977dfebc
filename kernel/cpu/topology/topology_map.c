/* Places APIC IDs in a decoded topology (SDM Vol. 3A §9.9.1: the ID's
 * fields, from the least significant: thread, core, package). */
#include "topology_map.h"
#include "lib/kstring.h"

static bool seen_before(const struct topology_map *m, unsigned i, bool same_core)
{
    for (unsigned j = 0; j < i; j++)
        if (m->cpus[j].package == m->cpus[i].package && (!same_core || m->cpus[j].core == m->cpus[i].core))
            return true;
    return false;
}

void topology_map_build(const struct cpu_topology *t, const uint32_t *apic_ids, unsigned n,
                        const char *from, struct topology_map *m)
{
    kmemset(m, 0, sizeof *m);
    m->t = t;
    m->processors_from = from;
    for (unsigned i = 0; i < n && m->ncpus < TOPO_MAX_CPUS; i++) {
        struct topo_cpu *c = &m->cpus[m->ncpus];
        c->apic_id = apic_ids[i];
        cpu_topology_split(t, c->apic_id, &c->package, &c->core, &c->thread);
        if (t->have_apic_id && c->apic_id == t->apic_id)
            c->core_type = cpu_core_type_name(t->core_type);
        m->packages += !seen_before(m, m->ncpus, false);
        m->cores += !seen_before(m, m->ncpus, true);
        for (unsigned k = 0; k < t->ncaches; k++)
            m->group[k][m->ncpus] = t->caches[k].share_bits >= 32 ? 0 : c->apic_id >> t->caches[k].share_bits;
        m->ncpus++;
    }
}
