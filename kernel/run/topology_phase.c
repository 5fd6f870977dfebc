/* The topology phase: the processors the platform knows of (the MADT's
 * enabled entries on bare metal; the CPUs sched_getaffinity allows on the
 * hosted runner; else only the one this runs on) placed in the CPUID
 * topology, and the record; then they are started (smp_phase.c). */
#include "cpu/topology/topology_map.h"
#include "record/log.h"
#include "report/write.h"
#include "smp_phase.h"
#include "topology_phase.h"

static unsigned madt_ids(const struct platform_info *info, uint32_t *ids, unsigned max)
{
    const struct platform_acpi_info *a = &info->bare.acpi;
    unsigned n = 0;
    if (!info->kind || info->kind[0] != 'b' || !a->madt)
        return 0;
    for (unsigned i = 0; i < a->ncpus && n < max; i++)
        if (a->cpus[i].enabled) /* online-capable ones may be enabled later (ACPI 6.5 §5.2.12.2): not now */
            ids[n++] = a->cpus[i].apic_id;
    return n;
}

/* The hosted runner's: the CPUs the process may run on, by the APIC ID a
 * thread pinned to each read (hosted/cpus.c); those it could not measure
 * are left out. */
static unsigned hosted_ids(const struct platform_info *info, uint32_t *ids, unsigned max)
{
    unsigned n = 0;
    if (!info->kind || info->kind[0] != 'h')
        return 0;
    for (unsigned i = 0; i < info->hosted.ncpus && n < max; i++)
        if (!info->hosted.cpus[i].why)
            ids[n++] = info->hosted.cpus[i].apic_id;
    return n;
}

/* The processors the platform lists, and who lists them (NULL: nobody). */
static unsigned listed_ids(const struct platform_info *info, uint32_t *ids, unsigned max, const char **by)
{
    unsigned n = madt_ids(info, ids, max);
    *by = info->kind && info->kind[0] == 'b' && info->bare.acpi.madt ? "the MADT" : NULL;
    if (!*by && (n = hosted_ids(info, ids, max)) > 0)
        *by = "sched_getaffinity";
    return n;
}

void topology_phase(const struct platform *here, const struct platform_info *info)
{
    static struct cpu_topology t;
    static struct topology_map m;
    uint32_t ids[TOPO_MAX_CPUS];
    cpu_topology_decode(cpu, &t);
    const char *from;
    unsigned n = listed_ids(info, ids, TOPO_MAX_CPUS, &from);
    if (n == 0) {
        ids[0] = t.apic_id;
        n = 1;
        from = "this processor only";
    }
    topology_map_build(&t, ids, n, from, &m);
    write_topology(&m);
    const char *by;
    unsigned nlisted = listed_ids(info, ids, TOPO_MAX_CPUS, &by);
    smp_phase(here, ids, nlisted, by, t.apic_id);
}
