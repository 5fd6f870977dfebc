#include "counters.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "report/log.h"

struct counters counters;

/* The proof's workload: 1 + 2*250 instructions, 250 taken-or-not branches. */
#define PROOF_ITERATIONS 250
static void proof_loop(void *arg)
{
    (void)arg;
    __asm__ volatile("movl %0, %%ecx\n"
                     "1: decl %%ecx\n"
                     "jnz 1b\n"
                     :
                     : "i"(PROOF_ITERATIONS)
                     : "ecx", "cc");
}

static void parse_events(void)
{
    char word[48];
    counters.nchosen = 0;
    for (const char *p = settings.events; (p = kword(p, ",", word, sizeof word)) != NULL;) {
        if (counters.nchosen == COUNTERS_EVENTS_MAX) {
            log_note("warn", "events", "more than %d events: '%s' and later ignored",
                        COUNTERS_EVENTS_MAX, word);
            break;
        }
        if (!counters.active) {
            log_note("warn", "events", "event '%s' ignored: the counters are not in use (%s)", word,
                        pmu_reason_text(counters.verdict.reason));
            continue;
        }
        struct pmu_eventsel sel;
        if (pmu_event_parse(&counters.drv, word, &sel) != 0) {
            log_note("warn", "events", "'%s' is neither an event of the %s driver nor a raw code",
                        word, counters.drv.name);
            continue;
        }
        counters.chosen[counters.nchosen++] = sel;
    }
}

void counters_prove(const struct cpu_info *c, const struct msr_ops *msr)
{
    kmemset(&counters, 0, sizeof counters);
    enum pmu_kind kind = pmu_select(c, &counters.why);
    pmu_bind(&counters.drv, kind, c, msr);
    struct pmu_workload w = { proof_loop, NULL, 1 + 2 * PROOF_ITERATIONS, PROOF_ITERATIONS };
    counters.active = pmu_prove(&counters.drv, &w, &counters.verdict);
}

void counters_take(void)
{
    const struct pmu_proof_slot *cyc = &counters.drv.proof[PMU_PROOF_CYCLES];
    if (counters.active && cyc->used) {
        counters.cycles = true;
        counters.cycles_sel = cyc->sel;
    }
    parse_events();
    /* From here on the harness owns the counters: saved now, restored at the end. */
    if (counters.active && pmu_save(&counters.drv) != 0) {
        log_note("warn", "pmu", "saving the PMU MSRs failed; counters not used");
        counters.active = false;
        counters.cycles = false;
        counters.nchosen = 0;
    }
}

/* Place as many of the pending events as there are counters that may count them. */
unsigned plan_pass(struct pmu_driver *d, const struct pmu_eventsel *sel, unsigned n,
                          const bool *done, unsigned *event_of, unsigned *counter_of)
{
    unsigned placed = 0;
    uint32_t busy = 0;
    for (unsigned i = 0; i < n && placed < PMU_MAX_GP; i++) {
        if (done[i])
            continue;
        for (unsigned ctr = 0; ctr < d->gp_counters; ctr++) {
            if ((busy >> ctr) & 1 || !pmu_event_allowed(d, ctr, &sel[i]))
                continue;
            busy |= 1u << ctr;
            event_of[placed] = i;
            counter_of[placed] = ctr;
            placed++;
            break;
        }
    }
    return placed;
}

/* At the end of the run every PMU MSR must read back what it held before
 * we came: restore what the harness still holds, then read them all back
 * (after a failed proof the proof itself restored them). */
void counters_finish(struct counters_restore *r)
{
    *r = (struct counters_restore){ 0 };
    unsigned readable = 0;
    for (unsigned i = 0; i < counters.drv.nsaved; i++)
        readable += counters.drv.saved[i].status == 0;
    if (!readable)
        return;
    r->saved = true;
    r->held = counters.drv.saved_done;
    if (r->held) {
        pmu_stop(&counters.drv);
        r->status = pmu_restore(&counters.drv);
    }
    r->ok = pmu_verify_restore(&counters.drv, &r->check) == 0 && r->status == 0;
}
