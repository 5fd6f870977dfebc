/* What each smp/ declaration runs (BENCH_SMP's .run, bench/smp_between.c):
 * the measurement of kernel/smp/ with the processors the start-up phase left
 * running, then its writer (kernel/report/cores/), then a warn note for
 * every processor the measurement had to abandon. In run/, not smp/: like
 * the suite, it hands what a room measured to the writers above it. */
#include "smp/c2c.h"
#include "cpu/cpu.h"
#include "cpu/topology/cpu_topology.h"
#include "harness/bench.h"
#include "options/settings.h"
#include "smp/loaded_chase.h"
#include "record/log.h"
#include "report/write.h"
#include "smp/sibling.h"
#include "smp/tsc_sync.h"

static void abandoned(const char *name, unsigned n, const uint32_t *apic)
{
    for (unsigned k = 0; k < n; k++)
        log_note("warn", "smp", "%s: the processor with APIC ID %u faulted or did not finish; abandoned", name,
                 (unsigned)apic[k]);
}

static void c2c(const struct smp_bench_run *r, bool rmw)
{
    static struct c2c_matrix m;
    c2c_measure(r->p, r->smp, rmw, r->hz, &m);
    write_c2c(&m, r->trusted);
    abandoned(r->name, m.lost, m.lost_apic);
}

void smp_run_c2c_rmw(const struct smp_bench_run *r) { c2c(r, true); }
void smp_run_c2c_store(const struct smp_bench_run *r) { c2c(r, false); }

void smp_run_tsc(const struct smp_bench_run *r)
{
    static struct tsc_sync t;
    tsc_sync_measure(r->p, r->smp, r->hz, &t);
    write_tsc_sync(&t, r->trusted);
}

/* A bad sibling= is noted when smp/sibling runs (the only user), naming
 * the text, the valid names and the default used instead. */
void smp_run_sibling(const struct smp_bench_run *r)
{
    static struct cpu_topology t;
    static struct sibling_result s;
    struct sibling_choice c;
    char why[64];
    if (!sibling_choice_parse(settings.sibling, &c, why, sizeof why))
        log_note("warn", "cmdline", "sibling=%s: %s (valid: %s; all); %s is used", settings.sibling, why,
                 SIBLING_NAMES, SIBLING_DEFAULT);
    cpu_topology_decode(cpu, &t);
    sibling_measure(r->p, r->smp, &t, &c, &s);
    write_sibling(&s, r->trusted);
}

/* The chain and the streamers' buffers live in the large memory the mem/
 * benchmarks get; the chain is sized from the LLC CPUID describes. */
void smp_run_loaded_chase(const struct smp_bench_run *r)
{
    static struct loaded_result res;
    struct loaded_config c = { 0 };
    if (r->p->big_memory)
        r->p->big_memory(&c.big, &c.big_size);
    c.llc = bench_llc_bytes(&c.llc_level);
    loaded_chase_measure(r->p, r->smp, &c, r->hz, &res);
    write_loaded_chase(&res, r->trusted);
    abandoned(r->name, res.lost, res.lost_apic);
}
