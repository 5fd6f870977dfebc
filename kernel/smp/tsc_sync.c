/* TSC synchronisation (see tsc_sync.h). */
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "lib/div64.h"
#include "lib/kstring.h"
#include "smp_bounds.h"
#include "tsc_sync.h"

#define MSR_TSC_ADJUST 0x3b

static struct {
    volatile uint32_t line __attribute__((aligned(128)));
    uint8_t pad[124];
    volatile uint64_t theirs;
    volatile uint32_t gave_up;
    const struct msr_ops *msr;
    bool read_adjust;
    int64_t adjust;
    bool have_adjust;
} hs __attribute__((aligned(128)));

/* The other processor's side: answer every signal with its TSC. */
static uintptr_t answer(uintptr_t arg)
{
    (void)arg;
    uint64_t v;
    if (hs.read_adjust && hs.msr && msr_read(hs.msr, MSR_TSC_ADJUST, &v) == 0) {
        hs.adjust = (int64_t)v;
        hs.have_adjust = true;
    }
    for (uint32_t r = 0; r < TSC_ROUNDS; r++) {
        if (!smp_spin_until(&hs.line, 2 * r + 1)) {
            hs.gave_up = 1;
            return 0;
        }
        hs.theirs = cpu_rdtsc_native();
        hs.line = 2 * r + 2;
    }
    return 1;
}

/* The boot processor's side: the narrowest of TSC_ROUNDS handshakes. */
static bool ask(int64_t *offset, uint64_t *uncertainty)
{
    uint64_t best = ~0ull;
    for (uint32_t r = 0; r < TSC_ROUNDS; r++) {
        uint64_t t0 = cpu_rdtsc_native();
        hs.line = 2 * r + 1;
        if (!smp_spin_until(&hs.line, 2 * r + 2))
            return false;
        uint64_t t1 = cpu_rdtsc_native();
        uint64_t half = (t1 - t0) / 2;
        if (half < best) {
            best = half;
            *offset = (int64_t)(hs.theirs - (t0 + half));
        }
    }
    *uncertainty = best;
    return true;
}

static bool measure_one(const struct platform *p, unsigned slot, int64_t *offset, uint64_t *unc)
{
    hs.line = 0;
    hs.gave_up = 0;
    if (!p->smp_call(slot, answer, 0))
        return false;
    bool ok = ask(offset, unc);
    return p->smp_wait(slot, SMP_WAIT_MS, 0) == SMP_DONE && ok;
}

static void spin_ms(uint64_t hz, uint32_t ms)
{
    uint64_t ticks = hz ? u64_divmod(hz * ms, 1000, 0) : (uint64_t)ms * 1000000u;
    uint64_t t0 = cpu_rdtsc_native();
    while (cpu_rdtsc_native() - t0 < ticks)
        ;
}

static uint64_t magnitude(int64_t v)
{
    return v < 0 ? (uint64_t)-v : (uint64_t)v;
}

static enum tsc_verdict judge(const struct tsc_cpu *c)
{
    if (magnitude(c->offset[0]) <= c->uncertainty[0] && magnitude(c->offset[1]) <= c->uncertainty[1])
        return TSC_SYNCHRONISED;
    if (magnitude(c->offset[1] - c->offset[0]) > c->uncertainty[0] + c->uncertainty[1])
        return TSC_DRIFTING;
    return TSC_OFFSET;
}

static void pass(const struct platform *p, const struct smp_info *s, struct tsc_sync *out, unsigned which)
{
    for (unsigned i = 0; i < out->n; i++) {
        struct tsc_cpu *c = &out->cpus[i];
        if (c->boot || (which == 1 && !c->measured))
            continue;
        unsigned slot = 0;
        for (unsigned k = 0; k < s->n; k++)
            if (s->cpus[k].apic_id == c->apic_id)
                slot = k;
        hs.read_adjust = out->adjust_exists && which == 0;
        hs.msr = p->msr;
        hs.have_adjust = false;
        c->measured = measure_one(p, slot, &c->offset[which], &c->uncertainty[which]);
        if (which == 0 && hs.have_adjust) {
            c->have_adjust = true;
            c->adjust = hs.adjust;
        }
    }
}

void tsc_sync_measure(const struct platform *p, const struct smp_info *s, uint64_t hz, struct tsc_sync *out)
{
    kmemset(out, 0, sizeof *out);
    const struct cpuid_regs *l7 = cpu_raw_find(cpu, 7, 0);
    out->adjust_exists = l7 && ((l7->ebx >> 1) & 1);
    for (unsigned k = 0; k < s->n && out->n < TSC_MAX; k++) {
        if (s->cpus[k].state != SMP_BSP && s->cpus[k].state != SMP_STARTED)
            continue;
        struct tsc_cpu *c = &out->cpus[out->n++];
        c->apic_id = s->cpus[k].apic_id;
        c->boot = s->cpus[k].state == SMP_BSP;
        if (c->boot) {
            uint64_t v;
            c->measured = true;
            if (out->adjust_exists && msr_read(p->msr, MSR_TSC_ADJUST, &v) == 0) {
                c->have_adjust = true;
                c->adjust = (int64_t)v;
            }
        }
    }
    pass(p, s, out, 0);
    spin_ms(hz, TSC_APART_MS);
    pass(p, s, out, 1);
    out->verdict = TSC_SYNCHRONISED;
    for (unsigned i = 0; i < out->n; i++) {
        struct tsc_cpu *c = &out->cpus[i];
        c->verdict = c->boot ? TSC_SYNCHRONISED : c->measured ? judge(c) : TSC_UNMEASURED;
        if (c->verdict != TSC_UNMEASURED && c->verdict > out->verdict)
            out->verdict = c->verdict;
    }
}

const char *tsc_verdict_name(enum tsc_verdict v)
{
    switch (v) {
    case TSC_SYNCHRONISED: return "synchronised";
    case TSC_OFFSET: return "offset";
    case TSC_DRIFTING: return "drifting";
    default: return "unmeasured";
    }
}
