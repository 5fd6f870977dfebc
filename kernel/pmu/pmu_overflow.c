/* Counter overflow as an interrupt (sampling, issue 32): a general counter
 * of Intel architectural perfmon version 2 or later, preloaded with -N and
 * its INT bit set (IA32_PERFEVTSELx bit 20), raises a PMI through the local
 * APIC's LVT performance-counter entry when it wraps after the N-th event;
 * its bit in IA32_PERF_GLOBAL_STATUS says so until written to
 * IA32_PERF_GLOBAL_OVF_CTRL (SDM Vol. 3B §20.2.2, "Architectural
 * Performance Monitoring Version 2", and §20.6.3.5 on sampling). The LVT
 * entry is the platform's (kernel/bare/sampler). The P5's way is its PM0
 * pin (below). */
#include "pmu_overflow.h"
#include "pmu_msr.h"

const char *pmu_overflow_refusal(const struct pmu_driver *d, bool nmi)
{
    if (d->kind == PMU_P5)
        return nmi ? NULL
                   : "a Pentium's counters interrupt only through its PM0 pin, which needs an EBS socket "
                     "wiring it to NMI (seed 004, section 3.3): with one fitted, sample=EVENT:PERIOD:nmi; "
                     "without it the P5 cannot take counter interrupts, and sample=time works through the PIT";
    if (d->kind != PMU_ARCH)
        return "counter interrupts are driven for Intel architectural perfmon and the P5's PM0 pin only "
               "(not this driver)";
    if (d->version < 2)
        return "architectural perfmon version 1 has no IA32_PERF_GLOBAL_STATUS to acknowledge an overflow";
    if (d->gp_counters < 2)
        return "fewer than two general counters (one samples, one counts instructions)";
    return NULL;
}

/* The P5: CESR's pin control flag (PC0, bit 9; PC1, bit 25) makes the
 * processor assert PM0/BP0 (PM1/BP1) when the counter has overflowed
 * instead of at each increment, "lagging the internal event by a few
 * clocks" (SDM Vol. 3B §18.23.1, "Control and Event Select Register");
 * nothing else stops, starts or acknowledges: a field's CC bits start its
 * counter, and the pin is the NMI an EBS socket makes of it. */
int pmu_overflow_load(struct pmu_driver *d, unsigned c, uint64_t events)
{
    uint64_t v = (0 - events) & pmu_width_mask(d->gp_width);
    if (d->kind == PMU_P5)
        return pmu_msr_wr(d, MSR_P5_CTR0 + c, v);
    if (d->full_width_write)
        return pmu_msr_wr(d, MSR_IA32_A_PMC0 + c, v);
    return pmu_msr_wr(d, MSR_IA32_PMC0 + c, v & 0xffffffffu); /* bit 31 sign-extends (§20.2.5) */
}

static uint64_t p5_field(const struct pmu_eventsel *ev, bool interrupt)
{
    unsigned fl = ev->flags & (PMU_OS | PMU_USR) ? ev->flags : ev->flags | PMU_OS | PMU_USR;
    return (ev->code & P5_ES_MASK) | (fl & PMU_OS ? P5_CC_CPL012 : 0) | (fl & PMU_USR ? P5_CC_CPL3 : 0) |
           (fl & PMU_DURATION ? P5_CC_CLOCKS : 0) | (interrupt ? P5_PC : 0);
}

int pmu_overflow_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev, bool interrupt)
{
    if (d->kind == PMU_P5) { /* written by pmu_overflow_enable: the CC bits would start it now */
        unsigned shift = P5_FIELD_SHIFT(c);
        d->ctl_shadow = (d->ctl_shadow & ~((uint64_t)P5_FIELD_MASK << shift)) | (p5_field(ev, interrupt) << shift);
        d->programmed |= 1ull << c;
        return 0;
    }
    int r = pmu_msr_wr(d, MSR_IA32_PERFEVTSEL0 + c,
                       pmu_evtsel_bits(ev) | EVTSEL_EN | (interrupt ? EVTSEL_INT : 0));
    if (r == 0)
        d->programmed |= 1ull << c;
    return r;
}

void pmu_overflow_enable_write(const struct pmu_driver *d, uint64_t counters, uint32_t *msr, uint64_t *value)
{
    if (d->kind == PMU_P5) {
        uint64_t cesr = 0;
        for (unsigned c = 0; c < 2; c++)
            if ((counters >> c) & 1)
                cesr |= d->ctl_shadow & ((uint64_t)P5_FIELD_MASK << P5_FIELD_SHIFT(c));
        *msr = MSR_P5_CESR;
        *value = cesr;
        return;
    }
    *msr = MSR_IA32_PERF_GLOBAL_CTRL;
    *value = counters;
}

int pmu_overflow_enable(struct pmu_driver *d, uint64_t counters)
{
    uint32_t msr;
    uint64_t value;
    pmu_overflow_enable_write(d, counters, &msr, &value);
    return pmu_msr_wr(d, msr, value);
}

int pmu_overflow_ack(struct pmu_driver *d, uint64_t counters)
{
    return d->kind == PMU_P5 ? 0 : pmu_msr_wr(d, MSR_IA32_PERF_GLOBAL_OVF_CTRL, counters);
}

int pmu_overflow_status(struct pmu_driver *d, uint64_t *status)
{
    if (d->kind == PMU_P5)
        return PMU_ERR_KIND;
    return pmu_msr_rd(d, MSR_IA32_PERF_GLOBAL_STATUS, status);
}

bool pmu_overflow_one_per_instruction(const struct pmu_driver *d, const struct pmu_eventsel *sel)
{
    if (d->kind == PMU_P5) /* 16h, instructions executed (both pipes), counted as events */
        return sel->code == 0x16 && !(sel->flags & PMU_DURATION);
    return (sel->code == 0xC0 || sel->code == 0xC4) && sel->umask == 0 && sel->cmask == 0;
}
