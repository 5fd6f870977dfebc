/* Writes what the PMU layer found, for people and for scripts. */
#include "record/log.h"
#include "write.h"

static void counter_name(char *buf, unsigned n, unsigned counter)
{
    /* "gp3" / "fixed1" without printf: n >= 8 */
    const char *p = PMU_IS_FIXED(counter) ? "fixed" : "gp";
    unsigned i = 0, v = PMU_IS_FIXED(counter) ? counter - PMU_FIXED_BASE : counter;
    while (*p && i + 2 < n)
        buf[i++] = *p++;
    buf[i++] = (char)('0' + v % 10);
    buf[i] = '\0';
}

static void evidence(const struct pmu_probe *p)
{
    char ctr[12];
    counter_name(ctr, sizeof ctr, p->counter);
    rec_obj_open(0);
    rec_str("check", pmu_proof_slot_name(p->slot));
    if (p->event)
        rec_str("event", p->event);
    else
        rec_null("event");
    rec_str("counter", ctr);
    rec_hex("code", p->code);
    rec_hex("umask", p->umask);
    rec_u64("before", p->before);
    rec_u64("after", p->after);
    rec_u64("once", p->once);
    rec_u64("twice", p->twice);
    rec_u64("delta", p->delta);
    rec_u64("min", p->expect_min);
    rec_u64("max", p->expect_max);
    rec_bool("ok", p->ok);
    rec_hex("status", (uint64_t)(unsigned)p->status);
    rec_obj_close();
}

void write_pmu(const struct pmu_driver *d, const char *why, const struct pmu_verdict *v)
{
    const char *verdict = v->counting ? "counting" : "not counting";
    /* An operating system's refusal in its own words (errno and why). */
    const char *reason = v->reason == PMU_REASON_REFUSED && d->refused ? d->refused : pmu_reason_text(v->reason);
    log_text("pmu: %s (%s), %u x %u-bit general, %u x %u-bit fixed: %s%s%s\n", d->name,
                pmu_kind_name(d->kind), d->gp_counters, d->gp_width, d->fixed_counters, d->fixed_width,
                verdict, v->counting ? "" : ": ", v->counting ? "" : reason);
    if (d->ops && d->ops->prove_more)
        log_text("pmu: software events %s%s\n", v->software_counting ? "counting (proved below)" : "not counting",
                 v->software_reason ? (v->software_counting ? "; one not proved: " : ": ") : "");
    if (d->ops && d->ops->prove_more && v->software_reason)
        log_text("pmu:   %s\n", v->software_reason);
    for (unsigned i = 0; i < v->nprobes; i++) {
        const struct pmu_probe *p = &v->probes[i];
        log_text("pmu:   %-18s %-36s delta %llu (expected %llu..%llu) %s\n",
                    pmu_proof_slot_name(p->slot), p->event ? p->event : "(raw)",
                    (unsigned long long)p->delta, (unsigned long long)p->expect_min,
                    (unsigned long long)p->expect_max, p->ok ? "ok" : "FAIL");
    }
    if (v->reason == PMU_REASON_SAVE_FAULT || v->reason == PMU_REASON_PROGRAM_FAULT ||
        v->reason == PMU_REASON_READ_FAULT)
        log_text("pmu:   fault 0x%x on MSR 0x%x\n", (unsigned)v->fault, (unsigned)v->fault_msr);

    rec_open("pmu");
    rec_str("driver", d->name);
    rec_str("kind", pmu_kind_name(d->kind));
    if (why)
        rec_str("why", why);
    rec_u64("gp_counters", d->gp_counters);
    rec_u64("gp_width", d->gp_width);
    rec_u64("fixed_counters", d->fixed_counters);
    rec_u64("fixed_width", d->fixed_width);
    rec_bool("rdpmc", d->has_rdpmc);
    rec_u64("events", d->nevents);
    rec_str("verdict", verdict);
    rec_str("reason", reason);
    if (d->ops && d->ops->prove_more)
        rec_bool("software_counting", v->software_counting);
    if (v->software_reason)
        rec_str("software_reason", v->software_reason);
    if (v->fault) {
        rec_hex("fault", (uint64_t)(unsigned)v->fault);
        if (v->reason != PMU_REASON_REFUSED) /* an operating system's refusal touches no MSR */
            rec_hex("fault_msr", v->fault_msr);
    }
    rec_bool("fixed_counting", v->fixed_counting);
    rec_u64("instructions", v->instructions);
    rec_u64("branches", v->branches);
    rec_u64("rounds", v->rounds);
    if (v->reads)
        rec_str("reads", v->reads);
    rec_arr_open("evidence");
    for (unsigned i = 0; i < v->nprobes; i++)
        evidence(&v->probes[i]);
    rec_arr_close();
    rec_obj_open("restore");
    rec_hex("status", (uint64_t)(unsigned)v->restore_status);
    rec_u64("checked", v->restore.checked);
    rec_u64("mismatches", v->restore.mismatches);
    rec_u64("inexact", v->restore.inexact);
    rec_u64("moving", v->restore.moving);
    rec_u64("faults", v->restore.faults);
    if (v->restore.mismatches) {
        rec_hex("first_msr", v->restore.first_msr);
        rec_hex("first_expected", v->restore.first_expected);
        rec_hex("first_actual", v->restore.first_actual);
    }
    rec_obj_close();
    rec_close();
}

void write_pmu_heading(bool used)
{
    log_text("\n== Counters ==\n");
    if (!used)
        log_text("  not used (pmu=off)\n");
}

void write_pmu_restore(const struct counters_restore *r)
{
    if (!r->saved) {
        log_text("  pmu: nothing to restore (no PMU MSR could be read)\n");
        rec_open("pmu_restore");
        rec_bool("saved", false);
        rec_close();
        return;
    }
    const struct pmu_restore_check *c = &r->check;
    log_text("  pmu: %u PMU MSRs read back after the run: %u mismatches, %u inexact, %u still moving, "
             "%u faults\n", c->checked, c->mismatches, c->inexact, c->moving, c->faults);
    rec_open("pmu_restore");
    rec_bool("saved", true);
    rec_str("restored", r->held ? "at the end of the run" : "after the proof");
    rec_i64("status", r->status);
    rec_u64("checked", c->checked);
    rec_u64("mismatches", c->mismatches);
    rec_u64("inexact", c->inexact);
    rec_u64("moving", c->moving);
    rec_u64("faults", c->faults);
    rec_bool("ok", r->ok);
    if (c->mismatches) {
        rec_hex("first_msr", c->first_msr);
        rec_hex("first_expected", c->first_expected);
        rec_hex("first_actual", c->first_actual);
    }
    rec_close();
}
