/* The "topology" record: how the processors are arranged (packages, cores,
 * threads, core types) and which of them share each cache level. */
#include "cpu/topology/topology_map.h"
#include "record/log.h"
#include "report/write.h"

static const char *cache_type(char t)
{
    return t == 'd' ? "data" : t == 'i' ? "instruction" : "unified";
}

/* The sharing groups of cache k in order of first appearance: calls out
 * once per group with the processors' indices in it. */
static void groups(const struct topology_map *m, unsigned k, bool json)
{
    for (unsigned i = 0; i < m->ncpus; i++) {
        bool first = true;
        for (unsigned j = 0; j < i && first; j++)
            first = m->group[k][j] != m->group[k][i];
        if (!first)
            continue;
        if (json)
            rec_arr_open(NULL);
        else
            log_text(" {");
        bool lead = true;
        for (unsigned j = i; j < m->ncpus; j++) {
            if (m->group[k][j] != m->group[k][i])
                continue;
            if (json)
                rec_u64(NULL, m->cpus[j].apic_id);
            else
                log_text(lead ? "%u" : ",%u", (unsigned)m->cpus[j].apic_id);
            lead = false;
        }
        if (json)
            rec_arr_close();
        else
            log_text("}");
    }
}

static void topology_text(const struct topology_map *m)
{
    const struct cpu_topology *t = m->t;
    log_text("\n== Processors ==\n");
    if (!t->source)
        log_text("topology: unknown (%s); %u processor%s from %s\n", t->why_unknown, m->ncpus,
                 m->ncpus == 1 ? "" : "s", m->processors_from);
    else
        log_text("topology: %u package%s, %u core%s, %u thread%s (%s; processors from %s)\n", m->packages,
                 m->packages == 1 ? "" : "s", m->cores, m->cores == 1 ? "" : "s", m->ncpus,
                 m->ncpus == 1 ? "" : "s", t->source, m->processors_from);
    log_text("  APIC ID = package.core.thread:");
    for (unsigned i = 0; i < m->ncpus; i++)
        log_text(" %u=%u.%u.%u%s%s", (unsigned)m->cpus[i].apic_id, (unsigned)m->cpus[i].package,
                 (unsigned)m->cpus[i].core, (unsigned)m->cpus[i].thread, m->cpus[i].core_type ? "/" : "",
                 m->cpus[i].core_type ? m->cpus[i].core_type : "");
    log_text("\n");
    for (unsigned k = 0; k < t->ncaches; k++) {
        log_text("  L%u%c shared by", t->caches[k].level, t->caches[k].type);
        groups(m, k, false);
        log_text("\n");
    }
}

static void processors(const struct topology_map *m)
{
    rec_arr_open("processors");
    for (unsigned i = 0; i < m->ncpus; i++) {
        rec_obj_open(NULL);
        rec_u64("apic_id", m->cpus[i].apic_id);
        rec_u64("package", m->cpus[i].package);
        rec_u64("core", m->cpus[i].core);
        rec_u64("thread", m->cpus[i].thread);
        if (m->cpus[i].core_type)
            rec_str("core_type", m->cpus[i].core_type);
        else
            rec_null("core_type");
        rec_obj_close();
    }
    rec_arr_close();
}

void write_topology(const struct topology_map *m)
{
    const struct cpu_topology *t = m->t;
    topology_text(m);
    rec_open("topology");
    if (t->source) {
        rec_str("source", t->source);
        rec_u64("smt_bits", t->smt_bits);
        rec_u64("package_bits", t->package_bits);
    } else {
        rec_null("source");
        rec_str("source_reason", t->why_unknown);
    }
    rec_str("processors_from", m->processors_from);
    rec_u64("packages", m->packages);
    rec_u64("cores", m->cores);
    rec_u64("threads", m->ncpus);
    rec_bool("hybrid", t->hybrid);
    processors(m);
    rec_arr_open("caches");
    for (unsigned k = 0; k < t->ncaches; k++) {
        rec_obj_open(NULL);
        rec_u64("level", t->caches[k].level);
        rec_str("type", cache_type(t->caches[k].type));
        rec_u64("sharing", t->caches[k].sharing);
        rec_u64("share_bits", t->caches[k].share_bits);
        rec_arr_open("groups");
        groups(m, k, true);
        rec_arr_close();
        rec_obj_close();
    }
    rec_arr_close();
    rec_close();
}
