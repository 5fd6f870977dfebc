/* The smp/ measurements between processors, after the suite (the TSC is
 * calibrated and the trust check has spoken by then): the core-to-core
 * latency matrix in its two variants, the TSC synchronisation and the
 * sibling interference, when
 * bench= selects them and at least two processors were started. */
#include "between_cores.h"
#include "harness/timer.h"
#include "harness/trust.h"
#include "lib/kstring.h"
#include "report/log.h"
#include "report/write.h"
#include "smp/c2c.h"
#include "smp/sibling.h"
#include "smp/tsc_sync.h"
#include "smp_phase.h"

extern char opt_select[]; /* bench= (suite.c) */

static bool selected(const char *name)
{
    char glob[64];
    for (const char *p = opt_select; (p = kword(p, ",", glob, sizeof glob)) != NULL;)
        if (kglob(glob, name))
            return true;
    return false;
}

static unsigned running(const struct smp_info *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->n; i++)
        n += s->cpus[i].state == SMP_BSP || s->cpus[i].state == SMP_STARTED;
    return n;
}

/* Whether name runs here; a note when it was asked for and cannot. */
static bool runs(const struct platform *p, const struct smp_info *s, const char *name)
{
    if (!selected(name))
        return false;
    if (p->smp_call && running(s) >= 2)
        return true;
    if (kstrncmp(opt_select, "smp/", 4) == 0)
        log_note("info", "smp", "%s: needs two running processors, %u here; not measured", name,
                 running(s) ? running(s) : 1);
    return false;
}

static void tsc(const struct platform *p, const struct smp_info *s)
{
    static struct tsc_sync t;
    if (!runs(p, s, "smp/tsc"))
        return;
    if (!cpu_has(cpu, FEAT_TSC)) {
        log_note("info", "smp", "smp/tsc: no TSC (CPUID.1:EDX[4]); not measured");
        return;
    }
    tsc_sync_measure(p, s, timer.hz, &t);
    write_tsc_sync(&t, trust.trusted);
}

static void sibling(const struct platform *p, const struct smp_info *s)
{
    static struct cpu_topology t;
    static struct sibling_result r;
    if (!runs(p, s, "smp/sibling"))
        return;
    cpu_topology_decode(cpu, &t);
    sibling_measure(p, s, &t, &r);
    write_sibling(&r, trust.trusted);
}

void between_cores(const struct platform *p)
{
    static struct c2c_matrix m;
    static const char *const names[] = { "smp/c2c/rmw", "smp/c2c/store" };
    const struct smp_info *s = smp_started();
    tsc(p, s);
    sibling(p, s);
    for (unsigned v = 0; v < 2; v++) {
        if (!runs(p, s, names[v]))
            continue;
        c2c_measure(p, s, v == 0, timer.hz, &m);
        write_c2c(&m, trust.trusted);
        for (unsigned k = 0; k < m.lost; k++)
            log_note("warn", "smp", "%s: the processor with APIC ID %u faulted or did not finish; abandoned",
                     names[v], (unsigned)m.lost_apic[k]);
    }
}
