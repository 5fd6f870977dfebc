/* Pentium (P5, P54C, P55C) counters: one 32-bit CESR (MSR 11h) holds a
 * 16-bit control field per counter (counter 1 in bits 16-31: 6-bit event,
 * CPL 0-2 bit 0x40, CPL 3 bit 0x80, clock-count bit 0x100); CTR0/CTR1 (MSR
 * 12h/13h) are 40 bits. Sources: see pmu_msr.h (SDM §18.23, [TT], [AP]).
 * RDPMC arrived with the P55C ([AP]: "Only works on P55C (or later)
 * processors"); the original Pentium reads its counters with RDMSR only. */
#include "pmu_msr.h"

static uint64_t p5_field(const struct pmu_eventsel *ev)
{
    unsigned fl = ev->flags;
    if (!(fl & (PMU_OS | PMU_USR)))
        fl |= PMU_OS | PMU_USR;
    uint64_t f = ev->code & P5_ES_MASK;
    if (fl & PMU_OS)
        f |= P5_CC_CPL012;
    if (fl & PMU_USR)
        f |= P5_CC_CPL3;
    if (fl & PMU_DURATION)
        f |= P5_CC_CLOCKS;
    return f;
}

static int p5_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev)
{
    unsigned shift = P5_FIELD_SHIFT(c);
    uint64_t cesr = (d->ctl_shadow & ~((uint64_t)P5_FIELD_MASK << shift)) | (p5_field(ev) << shift);
    int r = pmu_msr_wr(d, MSR_P5_CESR, cesr);
    if (r == 0) {
        d->ctl_shadow = cesr;
        d->programmed |= 1ull << c;
    }
    return r;
}

static int p5_read(struct pmu_driver *d, unsigned c, uint64_t *v)
{
    return pmu_msr_rd(d, MSR_P5_CTR0 + c, v);
}

static int p5_stop(struct pmu_driver *d)
{
    d->ctl_shadow = 0;
    return pmu_msr_wr(d, MSR_P5_CESR, 0); /* CC = 000: both counters count nothing */
}

static unsigned p5_list(const struct pmu_driver *d, struct pmu_saved_msr *out, unsigned max)
{
    (void)d;
    if (max < 3)
        return 0;
    pmu_list_entry(&out[0], MSR_P5_CTR0, MSR_P5_CTR0, PMU_MSR_COUNTER, P5_WIDTH, 0);
    pmu_list_entry(&out[1], MSR_P5_CTR1, MSR_P5_CTR1, PMU_MSR_COUNTER, P5_WIDTH, 1);
    pmu_list_entry(&out[2], MSR_P5_CESR, MSR_P5_CESR, 0, 0, 0);
    return 3;
}

static bool p5_saved_counting(const struct pmu_driver *d, unsigned c)
{
    uint64_t cesr;
    if (!pmu_saved_value(d, MSR_P5_CESR, &cesr))
        return false;
    return ((cesr >> P5_FIELD_SHIFT(c)) & (P5_CC_CPL012 | P5_CC_CPL3)) != 0;
}

static const struct pmu_driver_ops p5_ops = {
    .program = p5_program,
    .read = p5_read,
    .stop = p5_stop,
    .list_msrs = p5_list,
    .saved_counting = p5_saved_counting,
};

void pmu_p5_bind(struct pmu_driver *d)
{
    bool mmx = cpu_has(d->cpu, FEAT_MMX);
    d->name = mmx ? "p5-mmx" : "p5";
    d->gp_counters = 2;
    d->gp_width = P5_WIDTH;
    d->events = pmu_events_p5;
    d->nevents = mmx ? pmu_events_p5_count : pmu_events_p5_base_count;
    d->has_rdpmc = mmx;
    d->ops = &p5_ops;
    /* No instructions-retired event: 16h counts instructions executed in
     * both pipes. Cycles: the P55C has 30h "cycles not in HALT" on CTR0
     * (a duration event); the P54C has no cycle event, so CTR1 counts 16h
     * in clock mode (clocks in which instructions execute, at most all). */
    if (mmx) {
        pmu_set_proof(d, PMU_PROOF_INSN, 1, 0x16, 0, PMU_OS | PMU_USR);
        pmu_set_proof(d, PMU_PROOF_CYCLES, 0, 0x30, 0, PMU_OS | PMU_USR | PMU_DURATION);
    } else {
        pmu_set_proof(d, PMU_PROOF_INSN, 0, 0x16, 0, PMU_OS | PMU_USR);
        pmu_set_proof(d, PMU_PROOF_CYCLES, 1, 0x16, 0, PMU_OS | PMU_USR | PMU_DURATION);
    }
}
