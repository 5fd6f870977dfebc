/* P6 family counters (Pentium Pro, II, III, M): PerfEvtSel0/1 (186h/187h),
 * PerfCtr0/1 (C1h/C2h, 40 bits, written as 32 bits sign-extended). The EN
 * bit exists only in PerfEvtSel0 and starts or stops both counters, so
 * counter 1 alone still needs EN in PerfEvtSel0. Sources: pmu_msr.h (SDM
 * §18.22, vol. 4 "MSRs in the P6 family processors"). */
#include "pmu_msr.h"

static int p6_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev)
{
    uint64_t sel = pmu_evtsel_bits(ev);
    int r;
    if (c == 0) {
        r = pmu_msr_wr(d, MSR_P6_EVNTSEL0, sel | EVTSEL_EN);
    } else {
        r = pmu_msr_wr(d, MSR_P6_EVNTSEL1, sel);
        /* Counter 0 not ours: enable with an empty selection (no OS/USR
         * bit, so counter 0 counts nothing). */
        if (r == 0 && !(d->programmed & 1))
            r = pmu_msr_wr(d, MSR_P6_EVNTSEL0, EVTSEL_EN);
    }
    if (r == 0)
        d->programmed |= 1ull << c;
    return r;
}

static int p6_read(struct pmu_driver *d, unsigned c, uint64_t *v)
{
    return pmu_msr_rd(d, MSR_P6_PERFCTR0 + c, v);
}

static int p6_stop(struct pmu_driver *d)
{
    int r = pmu_msr_wr(d, MSR_P6_EVNTSEL0, 0); /* EN off: both stop */
    int r1 = pmu_msr_wr(d, MSR_P6_EVNTSEL1, 0);
    return r ? r : r1;
}

static unsigned p6_list(const struct pmu_driver *d, struct pmu_saved_msr *out, unsigned max)
{
    (void)d;
    if (max < 4)
        return 0;
    pmu_list_entry(&out[0], MSR_P6_PERFCTR0, MSR_P6_PERFCTR0, PMU_MSR_COUNTER | PMU_MSR_SEXT32, P6_WIDTH, 0);
    pmu_list_entry(&out[1], MSR_P6_PERFCTR1, MSR_P6_PERFCTR1, PMU_MSR_COUNTER | PMU_MSR_SEXT32, P6_WIDTH, 1);
    pmu_list_entry(&out[2], MSR_P6_EVNTSEL1, MSR_P6_EVNTSEL1, 0, 0, 0);
    pmu_list_entry(&out[3], MSR_P6_EVNTSEL0, MSR_P6_EVNTSEL0, 0, 0, 0); /* holds EN: last */
    return 4;
}

static bool p6_saved_counting(const struct pmu_driver *d, unsigned c)
{
    uint64_t sel0, sel;
    if (!pmu_saved_value(d, MSR_P6_EVNTSEL0, &sel0) || !pmu_saved_value(d, MSR_P6_EVNTSEL0 + c, &sel))
        return false;
    return (sel0 & EVTSEL_EN) && (sel & (EVTSEL_OS | EVTSEL_USR));
}

static const struct pmu_driver_ops p6_ops = {
    .program = p6_program,
    .read = p6_read,
    .stop = p6_stop,
    .list_msrs = p6_list,
    .saved_counting = p6_saved_counting,
};

void pmu_p6_bind(struct pmu_driver *d)
{
    d->name = "p6";
    d->gp_counters = 2;
    d->gp_width = P6_WIDTH;
    d->events = pmu_events_p6;
    d->nevents = pmu_events_p6_count;
    d->has_rdpmc = true;
    d->ops = &p6_ops;
    pmu_set_proof(d, PMU_PROOF_INSN, 0, 0xC0, 0, PMU_OS | PMU_USR);
    pmu_set_proof(d, PMU_PROOF_CYCLES, 1, 0x79, 0, PMU_OS | PMU_USR);
}
