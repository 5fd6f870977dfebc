/* The plan builder: where a benchmark's declaration meets the options. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "measure.h"
#include "plan.h"
#include "pmu/counters.h"
#include "trust.h"

/* quick= shortens the default only: an explicit samples= still counts. */
#define SAMPLES_DEFAULT 201
#define SAMPLES_QUICK 31
/* loops=auto (0, the default: options/settings.c) leaves L to the harness:
 * this many, grown until a sample is long enough (measure.c). */
#define LOOPS_AUTO 100

void plan_build(const struct bench *b, const struct settings *s, struct plan *pl)
{
    static const struct bench none;
    if (!b)
        b = &none;
    uint32_t samples = s->quick && s->samples == SAMPLES_DEFAULT ? SAMPLES_QUICK : s->samples;
    *pl = (struct plan){ 0 };
    pl->unroll = b->unroll ? b->unroll : s->unroll;
    pl->loops = b->loops ? b->loops : s->loops ? s->loops : LOOPS_AUTO;
    pl->loops_declared = b->loops != 0;
    pl->loops_grow = !pl->loops_declared && s->loops == 0;
    pl->samples = b->samples ? b->samples : samples;
    if (pl->samples > MEASURE_SAMPLES_MAX)
        pl->samples = MEASURE_SAMPLES_MAX;
    pl->warmup = s->warmup;
    pl->cold = s->cold || b->cold;
    pl->event_samples = PLAN_EVENT_SAMPLES;
    pl->ref_loops = trust.ref_loops ? trust.ref_loops : MEASURE_REF_LOOPS;
    pl->ref_startup_x100 = trust.add_known ? trust.add_ticks_x100 : 0;
    pl->rerun = !trust.checked || trust.trusted;
}

static void add_event(struct event_counts *ec, const struct pmu_eventsel *sel)
{
    if (ec->n > COUNTERS_EVENTS_MAX)
        return;
    ec->sel[ec->n] = *sel;
    /* The label keeps the qualifiers (":dur", ":u", a unit mask): a name
     * alone would say another request was counted. */
    pmu_eventsel_label(&counters.drv, sel, ec->labels[ec->n], sizeof ec->labels[0]);
    ec->names[ec->n] = ec->labels[ec->n];
    ec->n++;
}

void plan_events(const struct bench *b, struct event_counts *ec)
{
    ec->n = 0;
    ec->cycles_index = -1;
    if (!counters.active)
        return;
    if (counters.nchosen) {
        for (unsigned i = 0; i < counters.nchosen; i++)
            add_event(ec, &counters.chosen[i]);
    } else if (b->events) {
        char word[48];
        const char *p = b->events;
        while (ec->n < COUNTERS_EVENTS_MAX && (p = kword(p, " ,", word, sizeof word)) != NULL) {
            struct pmu_eventsel sel;
            if (pmu_event_parse(&counters.drv, word, &sel) == 0)
                add_event(ec, &sel);
        }
    }
    if (counters.cycles && !trust.cycles_exact) {
        ec->cycles_index = (int)ec->n;
        add_event(ec, &counters.cycles_sel);
    }
}
