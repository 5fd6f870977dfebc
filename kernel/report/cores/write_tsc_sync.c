/* The TSC synchronisation record and table (smp/tsc). */
#include "record/log.h"
#include "smp/tsc_sync.h"
#include "report/write.h"

static void text(const struct tsc_sync *t, bool trusted)
{
    log_text("\n== smp/tsc: offset from the boot CPU's TSC (ticks +- bound), %u ms apart ==\n",
             TSC_APART_MS);
    for (unsigned i = 0; i < t->n; i++) {
        const struct tsc_cpu *c = &t->cpus[i];
        log_text("  APIC ID %3u: ", (unsigned)c->apic_id);
        if (c->boot)
            log_text("the reference");
        else if (!c->measured)
            log_text("not measured (did not answer)");
        else
            log_text("%lld +- %llu, then %lld +- %llu: %s", (long long)c->offset[0],
                     (unsigned long long)c->uncertainty[0], (long long)c->offset[1],
                     (unsigned long long)c->uncertainty[1], tsc_verdict_name(c->verdict));
        if (c->have_adjust)
            log_text("; TSC_ADJUST %lld", (long long)c->adjust);
        else if (t->adjust_exists && c->measured) /* e.g. ring 3: MSRs refused */
            log_text("; TSC_ADJUST not readable here");
        log_text("\n");
    }
    log_text("  verdict: %s%s\n", tsc_verdict_name(t->verdict), trusted ? "" : " (timings untrusted here)");
}

static void cpu_fields(const struct tsc_cpu *c)
{
    rec_u64("apic_id", c->apic_id);
    rec_bool("boot", c->boot);
    rec_str("verdict", tsc_verdict_name(c->verdict));
    if (c->boot || !c->measured) {
        rec_null("offset_ticks");
        rec_null("uncertainty_ticks");
    } else {
        rec_arr_open("offset_ticks");
        rec_i64(NULL, c->offset[0]);
        rec_i64(NULL, c->offset[1]);
        rec_arr_close();
        rec_arr_open("uncertainty_ticks");
        rec_u64(NULL, c->uncertainty[0]);
        rec_u64(NULL, c->uncertainty[1]);
        rec_arr_close();
    }
    if (c->have_adjust)
        rec_i64("tsc_adjust", c->adjust);
    else
        rec_null("tsc_adjust");
}

void write_tsc_sync(const struct tsc_sync *t, bool trusted)
{
    text(t, trusted);
    rec_open("tsc_sync");
    rec_str("verdict", tsc_verdict_name(t->verdict));
    rec_bool("trusted", trusted);
    rec_u64("apart_ms", TSC_APART_MS);
    rec_u64("rounds", TSC_ROUNDS);
    rec_bool("tsc_adjust_exists", t->adjust_exists);
    rec_arr_open("processors");
    for (unsigned i = 0; i < t->n; i++) {
        rec_obj_open(NULL);
        cpu_fields(&t->cpus[i]);
        rec_obj_close();
    }
    rec_arr_close();
    rec_close();
}
