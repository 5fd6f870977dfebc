/* The "smp" record: how the other processors were started and what each
 * did (started and waiting, no answer, faulted, left out by cpus=). */
#include "record/log.h"
#include "platform/fault.h"
#include "report/write.h"

static const char *const state_names[] = {
    [SMP_BSP] = "boot", [SMP_STARTED] = "started", [SMP_NO_ANSWER] = "no answer",
    [SMP_FAULTED] = "faulted", [SMP_NOT_SELECTED] = "not selected",
};

static void smp_text(const struct smp_info *s)
{
    unsigned started = 0, tried = 0;
    for (unsigned i = 0; i < s->n; i++) {
        started += s->cpus[i].state == SMP_STARTED;
        tried += s->cpus[i].state != SMP_BSP && s->cpus[i].state != SMP_NOT_SELECTED;
    }
    if (s->why_not) {
        log_text("smp: the other processors were not started: %s\n", s->why_not);
        return;
    }
    if (s->trampoline)
        log_text("smp: %u of %u other processors started (%s, start-up page 0x%x); boot processor APIC ID %u\n",
                 started, tried, s->method, (unsigned)s->trampoline, (unsigned)s->bsp_apic_id);
    else
        log_text("smp: %u of %u other processors started (%s); main thread's APIC ID %u\n", started, tried,
                 s->method, (unsigned)s->bsp_apic_id);
    if (s->pinned)
        log_text("  %s\n", s->pinned);
    for (unsigned i = 0; i < s->n; i++) {
        const struct smp_cpu *c = &s->cpus[i];
        log_text("  APIC ID %u: %s", (unsigned)c->apic_id, state_names[c->state]);
        if (c->state == SMP_STARTED || c->state == SMP_FAULTED)
            log_text(" after %u us, %u-bit mode", (unsigned)c->answer_us, c->mode);
        if (c->why_32)
            log_text(" (%s)", c->why_32);
        if (c->state == SMP_FAULTED)
            log_text(", then %s at 0x%08x", fault_name(c->fault_vector), (unsigned)c->fault_eip);
        if (c->state == SMP_NO_ANSWER && c->why)
            log_text(" (%s)", c->why);
        log_text("\n");
    }
}

static void cpu_fields(const struct smp_cpu *c)
{
    rec_u64("apic_id", c->apic_id);
    rec_str("state", state_names[c->state]);
    if (c->state == SMP_NO_ANSWER && c->why)
        rec_str("reason", c->why);
    if (c->state != SMP_STARTED && c->state != SMP_FAULTED)
        return;
    rec_u64("answer_us", c->answer_us);
    rec_u64("cpuid_apic_id", c->reported_apic_id);
    rec_u64("mode", c->mode);
    if (c->why_32)
        rec_str("mode_reason", c->why_32);
    if (c->core_type)
        rec_u64("core_type", c->core_type);
    else
        rec_null("core_type");
    if (c->state == SMP_FAULTED) {
        rec_u64("vector", c->fault_vector);
        rec_str("fault", fault_name(c->fault_vector));
        rec_hex("eip", c->fault_eip);
    }
}

void write_smp(const struct smp_info *s)
{
    smp_text(s);
    rec_open("smp");
    if (s->why_not) {
        rec_null("method");
        rec_str("reason", s->why_not);
    } else {
        rec_str("method", s->method);
        if (s->trampoline)
            rec_hex("trampoline", s->trampoline);
        else
            rec_null("trampoline");
        rec_u64("bsp", s->bsp_apic_id);
        if (s->pinned)
            rec_str("pinned", s->pinned);
    }
    rec_arr_open("processors");
    for (unsigned i = 0; i < s->n; i++) {
        rec_obj_open(NULL);
        cpu_fields(&s->cpus[i]);
        rec_obj_close();
    }
    rec_arr_close();
    rec_close();
}
