/* The start-up phase (issue 12): which processors to start (the MADT's
 * enabled ones, narrowed by cpus=), the platform's start-up, the "smp"
 * record, and a note for each one that did not come up. */
#include "lib/kstring.h"
#include "options/settings.h"
#include "record/log.h"
#include "report/write.h"
#include "smp_phase.h"

#define ANSWER_MS 1000 /* TCG on a loaded host can take long; real ones answer in microseconds */

static struct smp_info smp;

static bool listed(const uint32_t *ids, unsigned n, uint32_t id)
{
    for (unsigned i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

/* cpus=: "all", a count, or APIC IDs with commas. NULL when it is
 * understood; ids/n narrowed in place. */
static const char *narrow(uint32_t *ids, unsigned *n)
{
    if (kstrcmp(settings.cpus, "all") == 0)
        return 0;
    uint32_t want[SMP_MAX_CPUS];
    unsigned nwant = 0;
    bool list = false;
    for (const char *p = settings.cpus; *p; p++) {
        if (*p == ',') {
            list = true;
            if (++nwant >= SMP_MAX_CPUS)
                return "more APIC IDs than processors";
            want[nwant] = 0;
            continue;
        }
        if (*p < '0' || *p > '9')
            return "not all, a number or a list of APIC IDs";
        if (p == settings.cpus)
            want[0] = 0;
        want[nwant] = want[nwant] * 10 + (uint32_t)(*p - '0');
    }
    if (!settings.cpus[0])
        return "empty";
    nwant++;
    if (!list) {
        if (want[0] == 0)
            return "0 processors";
        if (want[0] < *n)
            *n = want[0];
        return 0;
    }
    unsigned kept = 0;
    for (unsigned i = 0; i < *n; i++)
        if (i == 0 || listed(want, nwant, ids[i])) /* ids[0], the boot processor, always runs */
            ids[kept++] = ids[i];
    *n = kept;
    return 0;
}

static void note_each(void)
{
    for (unsigned i = 0; i < smp.n; i++) {
        const struct smp_cpu *c = &smp.cpus[i];
        if (c->state == SMP_NO_ANSWER && c->why)
            log_note("warn", "smp", "processor with APIC ID %u was not started: %s; skipped",
                     (unsigned)c->apic_id, c->why);
        else if (c->state == SMP_NO_ANSWER)
            log_note("warn", "smp", "processor with APIC ID %u did not answer within %u ms; skipped",
                     (unsigned)c->apic_id, (unsigned)ANSWER_MS);
        if (c->state == SMP_FAULTED)
            log_note("warn", "smp", "processor with APIC ID %u faulted (vector %u at 0x%08x); abandoned",
                     (unsigned)c->apic_id, c->fault_vector, (unsigned)c->fault_eip);
    }
}

/* The boot processor first, then the others in the MADT's order. */
static unsigned boot_first(const uint32_t *madt_ids, unsigned n, uint32_t bsp, uint32_t *ids)
{
    unsigned k = 0;
    if (listed(madt_ids, n, bsp))
        ids[k++] = bsp;
    for (unsigned i = 0; i < n && k < SMP_MAX_CPUS; i++)
        if (madt_ids[i] != bsp)
            ids[k++] = madt_ids[i];
    return k;
}

void smp_phase(const struct platform *p, const uint32_t *madt_ids, unsigned n, const char *listed_by,
               uint32_t bsp)
{
    uint32_t ids[SMP_MAX_CPUS];
    unsigned want = boot_first(madt_ids, n, bsp, ids);
    const char *bad = narrow(ids, &want);
    if (bad) {
        log_note("warn", "cmdline", "cpus=%s: %s; all processors are started instead", settings.cpus, bad);
        want = boot_first(madt_ids, n, bsp, ids);
    }
    if (!p->smp_start) {
        log_note("info", "smp", "one processor is used (this platform cannot start others)");
        return;
    }
    if (!listed_by || n <= 1) {
        if (listed_by)
            log_note("info", "smp", "one processor is used (the only one %s lists)", listed_by);
        else
            log_note("info", "smp", "one processor is used (no MADT)");
        return;
    }
    struct smp_request req = { ids, want, settings.smpfault ? settings.smpfault : SMP_NO_FAULT,
                               settings.smpfaultkind, ANSWER_MS };
    kmemset(&smp, 0, sizeof smp);
    p->smp_start(&req, &smp);
    for (unsigned i = 0; i < n && smp.n < SMP_MAX_CPUS && !smp.why_not; i++)
        if (!listed(ids, want, madt_ids[i])) {
            smp.cpus[smp.n].apic_id = madt_ids[i];
            smp.cpus[smp.n++].state = SMP_NOT_SELECTED;
        }
    write_smp(&smp);
    note_each();
    if (smp.why_not)
        log_note("info", "smp", "one processor is used (%s)", smp.why_not);
}

const struct smp_info *smp_started(void)
{
    return &smp;
}
