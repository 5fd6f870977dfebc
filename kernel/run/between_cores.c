/* The smp/ measurements between processors, after the suite (the TSC is
 * calibrated and the trust check has spoken by then): the core-to-core
 * latency matrix in its two variants, when bench= selects them and at
 * least two processors were started. */
#include "between_cores.h"
#include "harness/timer.h"
#include "harness/trust.h"
#include "lib/kstring.h"
#include "report/log.h"
#include "report/write.h"
#include "smp/c2c.h"
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

void between_cores(const struct platform *p)
{
    static struct c2c_matrix m;
    static const char *const names[] = { "smp/c2c/rmw", "smp/c2c/store" };
    const struct smp_info *s = smp_started();
    for (unsigned v = 0; v < 2; v++) {
        if (!selected(names[v]))
            continue;
        if (!p->smp_call || running(s) < 2) {
            if (kstrncmp(opt_select, "smp/", 4) == 0)
                log_note("info", "smp", "%s: needs two running processors, %u here; not measured", names[v],
                         running(s) ? running(s) : 1);
            continue;
        }
        c2c_measure(p, s, v == 0, timer.hz, &m);
        write_c2c(&m, trust.trusted);
        for (unsigned k = 0; k < m.lost; k++)
            log_note("warn", "smp", "%s: the processor with APIC ID %u faulted or did not finish; abandoned",
                     names[v], (unsigned)m.lost_apic[k]);
    }
}
