/* AMD counters from the K7 (Athlon) on: four PerfEvtSel/PerfCtr pairs at
 * C001_0000-7 (48 bits), or from family 15h with PerfCtrExtCore six pairs
 * interleaved at C001_0200 + 2i / C001_0201 + 2i. With PerfMonV2 (Zen 4) a
 * global enable (C000_0301) is ANDed with the per-counter EN bits. Sources:
 * pmu_msr.h (AMD APM vol. 2 §13.2, BKDG 15h, Linux msr-index.h). */
#include "pmu_msr.h"

static uint32_t ctl_msr(const struct pmu_driver *d, unsigned c)
{
    return d->core_ext ? MSR_F15H_PERF_CTL0 + 2 * c : MSR_K7_EVNTSEL0 + c;
}

static uint32_t ctr_msr(const struct pmu_driver *d, unsigned c)
{
    return d->core_ext ? MSR_F15H_PERF_CTR0 + 2 * c : MSR_K7_PERFCTR0 + c;
}

static bool has_global(const struct pmu_driver *d)
{
    return d->version >= 2;
}

static int amd_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev)
{
    uint64_t sel = pmu_evtsel_bits(ev) | EVTSEL_EN |
                   ((uint64_t)((ev->code >> 8) & 0xf) << AMD_EVTSEL_EVENT_HI_SHIFT);
    int r = pmu_msr_wr(d, ctl_msr(d, c), sel);
    if (r != 0)
        return r;
    d->programmed |= 1ull << c;
    return has_global(d) ? pmu_msr_wr(d, MSR_AMD_PERF_GLOBAL_CTL, d->programmed) : 0;
}

static int amd_read(struct pmu_driver *d, unsigned c, uint64_t *v)
{
    return pmu_msr_rd(d, ctr_msr(d, c), v);
}

static int amd_stop(struct pmu_driver *d)
{
    int first = 0, r;
    if (has_global(d))
        first = pmu_msr_wr(d, MSR_AMD_PERF_GLOBAL_CTL, 0);
    for (unsigned c = 0; c < d->gp_counters; c++) {
        if ((d->programmed >> c) & 1) {
            r = pmu_msr_wr(d, ctl_msr(d, c), 0);
            if (r && !first)
                first = r;
        }
    }
    return first;
}

static unsigned amd_list(const struct pmu_driver *d, struct pmu_saved_msr *out, unsigned max)
{
    unsigned n = 0;
    for (unsigned c = 0; c < d->gp_counters && n < max; c++)
        pmu_list_entry(&out[n++], ctr_msr(d, c), ctr_msr(d, c), PMU_MSR_COUNTER, AMD_WIDTH, c);
    for (unsigned c = 0; c < d->gp_counters && n < max; c++)
        pmu_list_entry(&out[n++], ctl_msr(d, c), ctl_msr(d, c), 0, 0, 0);
    if (has_global(d) && n < max)
        pmu_list_entry(&out[n++], MSR_AMD_PERF_GLOBAL_CTL, MSR_AMD_PERF_GLOBAL_CTL, 0, 0, 0);
    return n;
}

static bool amd_saved_counting(const struct pmu_driver *d, unsigned c)
{
    uint64_t global = ~(uint64_t)0, sel;
    if (has_global(d) && !pmu_saved_value(d, MSR_AMD_PERF_GLOBAL_CTL, &global))
        return false;
    if (!((global >> c) & 1) || !pmu_saved_value(d, ctl_msr(d, c), &sel))
        return false;
    return (sel & EVTSEL_EN) && (sel & (EVTSEL_OS | EVTSEL_USR));
}

static const struct pmu_driver_ops amd_ops = {
    .program = amd_program,
    .read = amd_read,
    .stop = amd_stop,
    .list_msrs = amd_list,
    .saved_counting = amd_saved_counting,
};

void pmu_amd_bind(struct pmu_driver *d)
{
    const struct cpu_info *c = d->cpu;
    struct cpuid_regs ext22;

    d->core_ext = c->family >= 0x15 && cpu_has(c, FEAT_PERFCTR_CORE);
    d->gp_counters = d->core_ext ? 6 : 4;
    d->version = 1;
    /* PerfMonV2: CPUID 8000_0022 EAX bit 0; EBX[3:0] counts the core counters. */
    if (d->core_ext && c->max_ext_leaf >= 0x80000022u && pmu_cpuid_leaf(c, 0x80000022u, 0, &ext22) &&
        (ext22.eax & 1)) {
        d->version = 2;
        unsigned n = ext22.ebx & 0xf;
        if (n && n < d->gp_counters)
            d->gp_counters = n;
    }
    d->name = d->version >= 2 ? "amd-perfmon-v2" : d->core_ext ? "amd-core" : "amd-k7";
    d->gp_width = AMD_WIDTH;
    d->events = pmu_events_amd;
    d->nevents = pmu_events_amd_count;
    d->has_rdpmc = true;
    d->ops = &amd_ops;
    pmu_set_proof(d, PMU_PROOF_INSN, 0, 0xC0, 0, PMU_OS | PMU_USR);
    pmu_set_proof(d, PMU_PROOF_CYCLES, 1, 0x76, 0, PMU_OS | PMU_USR);
    pmu_set_proof(d, PMU_PROOF_BRANCH, 2, 0xC2, 0, PMU_OS | PMU_USR);
}
