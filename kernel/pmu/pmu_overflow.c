/* Counter overflow as an interrupt (sampling, issue 32): a general counter
 * of Intel architectural perfmon version 2 or later, preloaded with -N and
 * its INT bit set (IA32_PERFEVTSELx bit 20), raises a PMI through the local
 * APIC's LVT performance-counter entry when it wraps after the N-th event;
 * its bit in IA32_PERF_GLOBAL_STATUS says so until written to
 * IA32_PERF_GLOBAL_OVF_CTRL (SDM Vol. 3B §20.2.2, "Architectural
 * Performance Monitoring Version 2", and §20.6.3.5 on sampling). The LVT
 * entry is the platform's (kernel/bare/sampler). */
#include "pmu_overflow.h"
#include "pmu_msr.h"

const char *pmu_overflow_refusal(const struct pmu_driver *d)
{
    if (d->kind == PMU_P5)
        return "a Pentium's counters interrupt only through its PM0 pin, which needs an EBS socket "
               "wiring it to NMI (seed 004, section 3.3); without one the P5 cannot take counter "
               "interrupts: sample=time works through the PIT";
    if (d->kind != PMU_ARCH)
        return "counter interrupts are driven for Intel architectural perfmon only (not this driver)";
    if (d->version < 2)
        return "architectural perfmon version 1 has no IA32_PERF_GLOBAL_STATUS to acknowledge an overflow";
    if (d->gp_counters < 2)
        return "fewer than two general counters (one samples, one counts instructions)";
    return NULL;
}

int pmu_overflow_load(struct pmu_driver *d, unsigned c, uint64_t events)
{
    uint64_t v = (0 - events) & pmu_width_mask(d->gp_width);
    if (d->full_width_write)
        return pmu_msr_wr(d, MSR_IA32_A_PMC0 + c, v);
    return pmu_msr_wr(d, MSR_IA32_PMC0 + c, v & 0xffffffffu); /* bit 31 sign-extends (§20.2.5) */
}

int pmu_overflow_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev, bool interrupt)
{
    int r = pmu_msr_wr(d, MSR_IA32_PERFEVTSEL0 + c,
                       pmu_evtsel_bits(ev) | EVTSEL_EN | (interrupt ? EVTSEL_INT : 0));
    if (r == 0)
        d->programmed |= 1ull << c;
    return r;
}

int pmu_overflow_enable(struct pmu_driver *d, uint64_t counters)
{
    return pmu_msr_wr(d, MSR_IA32_PERF_GLOBAL_CTRL, counters);
}

int pmu_overflow_ack(struct pmu_driver *d, uint64_t counters)
{
    return pmu_msr_wr(d, MSR_IA32_PERF_GLOBAL_OVF_CTRL, counters);
}

int pmu_overflow_status(struct pmu_driver *d, uint64_t *status)
{
    return pmu_msr_rd(d, MSR_IA32_PERF_GLOBAL_STATUS, status);
}
