#include "counters.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "record/log.h"
#include "stats/stats.h"

struct counters counters;

/* The proof's workload: a loop of `times` x 1000 DEC/JNZ pairs. Only the
 * count differs between once and twice over (the multiply and the call
 * are the same), so each further time retires exactly 2000 instructions
 * and 1000 branches. */
#define PROOF_ITERATIONS 1000u
static void proof_loop(void *arg, unsigned times)
{
    (void)arg;
    uint32_t n = times * PROOF_ITERATIONS;
    __asm__ volatile("1: decl %0\n"
                     "jnz 1b\n"
                     : "+r"(n)
                     :
                     : "cc");
}

/* Why sel may not be counted though the driver knows it (NULL: it may),
 * in the driver's own words (a Linux event whose proof failed). */
static const char *unusable_event(const struct pmu_eventsel *sel)
{
    const struct pmu_driver *d = &counters.drv;
    if (d->ops && d->ops->unusable)
        return d->ops->unusable(d, sel);
    return NULL;
}

void counters_choose_events(void)
{
    static char parsed[sizeof settings.events];
    char word[48];
    if (counters.chose_once && kstrcmp(parsed, settings.events) == 0)
        return; /* the same list again (a session's request): chosen, its problems noted */
    counters.chose_once = true;
    kstrlcpy(parsed, settings.events, sizeof parsed);
    counters.nchosen = 0;
    for (const char *p = settings.events; (p = kword(p, ",", word, sizeof word)) != NULL;) {
        if (counters.nchosen == COUNTERS_EVENTS_MAX) {
            log_note("warn", "events", "more than %d events: '%s' and later ignored",
                        COUNTERS_EVENTS_MAX, word);
            break;
        }
        bool own_word = counters.drv.ops && counters.drv.ops->unusable; /* it says why itself */
        if (!counters.active && !own_word) {
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
        const char *unusable = unusable_event(&sel);
        if (unusable) {
            log_note("warn", "events", "event '%s' ignored: %s", word, unusable);
            continue;
        }
        counters.chosen[counters.nchosen++] = sel;
    }
}

void counters_prove(const struct cpu_info *c, const struct msr_ops *msr, counters_os_bind os_bind)
{
    kmemset(&counters, 0, sizeof counters);
    if (!os_bind || !os_bind(&counters.drv, c, &counters.why)) {
        enum pmu_kind kind = pmu_select(c, &counters.why);
        pmu_bind(&counters.drv, kind, c, msr);
    }
    struct pmu_workload w = { proof_loop, NULL, 2 * PROOF_ITERATIONS, PROOF_ITERATIONS };
    counters.active = pmu_prove(&counters.drv, &w, &counters.verdict) || counters.verdict.software_counting;
}

/* Core cycles from the fixed counter when it was proved (the general
 * counters stay free for events), else from the proved general one. */
static void take_cycles(void)
{
    const struct pmu_driver *d = &counters.drv;
    const struct pmu_proof_slot *cyc = &d->proof[PMU_PROOF_CYCLES];
    if (!counters.verdict.counting) /* the general counters' proof, not a software event's */
        return;
    if (d->fixed_events && ((d->fixed_proven >> 1) & 1)) {
        counters.cycles = true;
        counters.cycles_sel = pmu_eventsel_of(&d->fixed_events[1]);
    } else if (cyc->used) {
        counters.cycles = true;
        counters.cycles_sel = cyc->sel;
    }
}

void counters_take(void)
{
    take_cycles();
    counters_choose_events();
    /* From here on the harness owns the counters: saved now, restored at the end. */
    if (counters.active && pmu_save(&counters.drv) != 0) {
        log_note("warn", "pmu", "saving the PMU MSRs failed; counters not used");
        counters.active = false;
        counters.cycles = false;
        counters.nchosen = 0;
    }
}

uint32_t counters_hold_spare(const char **why)
{
    struct pmu_driver *d = &counters.drv;
    if (d->gp_counters < 2) {
        *why = "no general counter to spare: this run counts its events on the only one";
        return 0;
    }
    unsigned c = d->gp_counters - 1;
    d->reserved = 1u << c;
    return pmu_counter_msr(d, c);
}

/* A counter for sel that this pass has not taken, or -1: a proved fixed
 * counter (fixed) or a general one that no benchmark holds. */
static int free_counter(const struct pmu_driver *d, const struct pmu_eventsel *sel, uint64_t busy, bool fixed)
{
    unsigned n = fixed ? d->fixed_counters : d->gp_counters;
    for (unsigned i = 0; i < n; i++) {
        unsigned ctr = fixed ? PMU_FIXED(i) : i;
        bool usable = fixed ? (d->fixed_proven >> i) & 1 : !((d->reserved >> i) & 1);
        if (usable && !((busy >> ctr) & 1) && pmu_event_allowed(d, ctr, sel))
            return (int)ctr;
    }
    return -1;
}

/* Whether sel names a fixed counter's own event (INST_RETIRED.ANY, not
 * INST_RETIRED.ANY_P): that one goes to its fixed counter first. */
static bool names_fixed_event(const struct pmu_driver *d, const struct pmu_eventsel *sel)
{
    for (unsigned i = 0; sel->name && d->fixed_events && i < d->fixed_counters; i++)
        if (kstrcmp(sel->name, d->fixed_events[i].name) == 0)
            return true;
    return false;
}

/* Place as many of the pending events as there are counters that may count
 * them: a fixed counter's own event on it, the others on general counters
 * (on a fixed counter that can count them when none is left). At most
 * PMU_MAX_GP per pass (the measuring loop's arrays). When nothing is left
 * to place, the benchmark's hold on a counter ends with its run. */
unsigned plan_pass(struct pmu_driver *d, const struct pmu_eventsel *sel, unsigned n,
                          const bool *done, unsigned *event_of, unsigned *counter_of)
{
    unsigned placed = 0;
    uint64_t busy = 0;
    for (unsigned i = 0; i < n && placed < PMU_MAX_GP; i++) {
        if (done[i])
            continue;
        bool fixed_first = names_fixed_event(d, &sel[i]);
        int ctr = free_counter(d, &sel[i], busy, fixed_first);
        if (ctr < 0)
            ctr = free_counter(d, &sel[i], busy, !fixed_first);
        if (ctr < 0)
            continue;
        busy |= 1ull << ctr;
        event_of[placed] = i;
        counter_of[placed] = (unsigned)ctr;
        placed++;
    }
    if (!placed)
        d->reserved = 0;
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
