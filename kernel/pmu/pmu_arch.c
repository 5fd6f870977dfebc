/* Intel architectural performance monitoring, versions 1 to 5, sized by
 * CPUID leaf 0AH (struct cpu_info.perfmon, and the raw leaf when recorded):
 * general counters IA32_PMCx/IA32_PERFEVTSELx, fixed counters
 * IA32_FIXED_CTRx enabled by 4-bit fields of IA32_FIXED_CTR_CTRL, and from
 * version 2 the IA32_PERF_GLOBAL_CTRL enables (bit i general, bit 32+i
 * fixed), ANDed with the per-counter enables. Sources: pmu_msr.h. */
#include "pmu_msr.h"

static bool has_global(const struct pmu_driver *d)
{
    return d->version >= 2;
}

/* Our counters only: whatever else firmware enabled is off while we measure. */
static int write_global(struct pmu_driver *d)
{
    return has_global(d) ? pmu_msr_wr(d, MSR_IA32_PERF_GLOBAL_CTRL, d->programmed) : 0;
}

static int arch_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev)
{
    int r;
    if (PMU_IS_FIXED(c)) {
        unsigned i = c - PMU_FIXED_BASE;
        unsigned fl = ev->flags;
        if (!(fl & (PMU_OS | PMU_USR)))
            fl |= PMU_OS | PMU_USR;
        uint64_t field = ((fl & PMU_OS) ? FIXED_CTRL_OS : 0) | ((fl & PMU_USR) ? FIXED_CTRL_USR : 0);
        uint64_t ctrl = (d->ctl_shadow & ~FIXED_CTRL_FIELD(i)) | (field << (4 * i));
        r = pmu_msr_wr(d, MSR_IA32_FIXED_CTR_CTRL, ctrl);
        if (r != 0)
            return r;
        d->ctl_shadow = ctrl;
    } else {
        r = pmu_msr_wr(d, MSR_IA32_PERFEVTSEL0 + c, pmu_evtsel_bits(ev) | EVTSEL_EN);
        if (r != 0)
            return r;
    }
    d->programmed |= 1ull << c;
    return write_global(d);
}

static int arch_read(struct pmu_driver *d, unsigned c, uint64_t *v)
{
    if (PMU_IS_FIXED(c))
        return pmu_msr_rd(d, MSR_IA32_FIXED_CTR0 + (c - PMU_FIXED_BASE), v);
    return pmu_msr_rd(d, MSR_IA32_PMC0 + c, v);
}

static int arch_stop(struct pmu_driver *d)
{
    int first = 0, r;
    if (has_global(d)) {
        r = pmu_msr_wr(d, MSR_IA32_PERF_GLOBAL_CTRL, 0);
        first = r;
    }
    for (unsigned c = 0; c < d->gp_counters; c++) {
        if ((d->programmed >> c) & 1) {
            r = pmu_msr_wr(d, MSR_IA32_PERFEVTSEL0 + c, 0);
            if (r && !first)
                first = r;
        }
    }
    if (d->programmed >> PMU_FIXED_BASE) {
        r = pmu_msr_wr(d, MSR_IA32_FIXED_CTR_CTRL, 0);
        if (r && !first)
            first = r;
    }
    d->ctl_shadow = 0;
    return first;
}

static unsigned arch_list(const struct pmu_driver *d, struct pmu_saved_msr *out, unsigned max)
{
    unsigned n = 0;
    uint8_t pmc_flags = PMU_MSR_COUNTER | (d->full_width_write ? 0 : PMU_MSR_SEXT32);
    for (unsigned c = 0; c < d->gp_counters && n < max; c++)
        pmu_list_entry(&out[n++], MSR_IA32_PMC0 + c,
                       d->full_width_write ? MSR_IA32_A_PMC0 + c : MSR_IA32_PMC0 + c, pmc_flags,
                       d->gp_width, c);
    for (unsigned i = 0; i < d->fixed_counters && n < max; i++)
        if ((d->fixed_mask >> i) & 1)
            pmu_list_entry(&out[n++], MSR_IA32_FIXED_CTR0 + i, MSR_IA32_FIXED_CTR0 + i,
                           PMU_MSR_COUNTER, d->fixed_width, PMU_FIXED(i));
    for (unsigned c = 0; c < d->gp_counters && n < max; c++)
        pmu_list_entry(&out[n++], MSR_IA32_PERFEVTSEL0 + c, MSR_IA32_PERFEVTSEL0 + c, 0, 0, 0);
    if (d->fixed_counters && n < max)
        pmu_list_entry(&out[n++], MSR_IA32_FIXED_CTR_CTRL, MSR_IA32_FIXED_CTR_CTRL, 0, 0, 0);
    if (has_global(d) && n < max)
        pmu_list_entry(&out[n++], MSR_IA32_PERF_GLOBAL_CTRL, MSR_IA32_PERF_GLOBAL_CTRL, 0, 0, 0);
    return n;
}

static bool arch_saved_counting(const struct pmu_driver *d, unsigned c)
{
    uint64_t global = ~(uint64_t)0, v;
    if (has_global(d) && !pmu_saved_value(d, MSR_IA32_PERF_GLOBAL_CTRL, &global))
        return false;
    if (!((global >> c) & 1))
        return false;
    if (PMU_IS_FIXED(c)) {
        if (!pmu_saved_value(d, MSR_IA32_FIXED_CTR_CTRL, &v))
            return false;
        return ((v >> (4 * (c - PMU_FIXED_BASE))) & (FIXED_CTRL_OS | FIXED_CTRL_USR)) != 0;
    }
    if (!pmu_saved_value(d, MSR_IA32_PERFEVTSEL0 + c, &v))
        return false;
    return (v & EVTSEL_EN) && (v & (EVTSEL_OS | EVTSEL_USR));
}

static const struct pmu_driver_ops arch_ops = {
    .program = arch_program,
    .read = arch_read,
    .stop = arch_stop,
    .list_msrs = arch_list,
    .saved_counting = arch_saved_counting,
};

static const char *const arch_names[] = {
    "intel-arch-v0", "intel-arch-v1", "intel-arch-v2", "intel-arch-v3",
    "intel-arch-v4", "intel-arch-v5", "intel-arch-v6+",
};

static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

void pmu_arch_bind(struct pmu_driver *d)
{
    const struct cpu_info *c = d->cpu;
    struct cpuid_regs leaf;
    bool have_leaf = pmu_cpuid_leaf(c, 0xA, 0, &leaf);

    d->version = c->perfmon.version;
    d->name = arch_names[min_u(d->version, 6)];
    d->gp_counters = min_u(c->perfmon.gp_counters, PMU_MAX_GP);
    d->gp_width = c->perfmon.gp_width ? c->perfmon.gp_width : 32;
    d->events = pmu_events_arch;
    d->nevents = pmu_events_arch_count;
    d->fixed_events = pmu_events_arch_fixed;
    d->has_rdpmc = true;
    d->ops = &arch_ops;

    /* Fixed counters are enumerated from version 2 (CPUID.0AH:EDX[4:0]);
     * version 5 adds ECX as a bitmap of fixed counters that exist. */
    if (d->version >= 2) {
        uint32_t mask = c->perfmon.fixed_counters >= 32 ? ~0u : (1u << c->perfmon.fixed_counters) - 1;
        if (d->version >= 5 && have_leaf)
            mask |= leaf.ecx;
        mask &= (1u << PMU_MAX_FIXED) - 1;
        d->fixed_mask = mask;
        d->fixed_counters = 0;
        for (unsigned i = 0; i < PMU_MAX_FIXED; i++)
            if ((mask >> i) & 1)
                d->fixed_counters = i + 1;
        d->fixed_width = c->perfmon.fixed_width ? c->perfmon.fixed_width : d->gp_width;
    }

    /* Events past the length of the EBX vector (EAX[31:24]) are not
     * enumerated, hence unavailable; without the raw leaf, assume the seven
     * events of the original definition. */
    unsigned ebx_len = have_leaf ? (leaf.eax >> 24) & 0xff : 7;
    d->unavailable = c->perfmon.unavailable_events;
    if (ebx_len < 32)
        d->unavailable |= ~0u << ebx_len;

    /* Full-width counter writes (restores exactly even values above 2^31). */
    uint64_t caps;
    d->full_width_write = cpu_has(c, FEAT_PDCM) &&
                          pmu_msr_rd(d, MSR_IA32_PERF_CAPABILITIES, &caps) == 0 &&
                          (caps & PERF_CAP_FW_WRITE);

    unsigned next = 0;
    if (!((d->unavailable >> 1) & 1) && next < d->gp_counters)
        pmu_set_proof(d, PMU_PROOF_INSN, next++, 0xC0, 0x00, PMU_OS | PMU_USR);
    if (!((d->unavailable >> 0) & 1) && next < d->gp_counters)
        pmu_set_proof(d, PMU_PROOF_CYCLES, next++, 0x3C, 0x00, PMU_OS | PMU_USR);
    if (!((d->unavailable >> 5) & 1) && next < d->gp_counters)
        pmu_set_proof(d, PMU_PROOF_BRANCH, next++, 0xC4, 0x00, PMU_OS | PMU_USR);
    if ((d->fixed_mask >> 0) & 1)
        pmu_set_proof(d, PMU_PROOF_FIXED_INSN, PMU_FIXED(0), 0xC0, 0x00, PMU_OS | PMU_USR);
    if ((d->fixed_mask >> 1) & 1)
        pmu_set_proof(d, PMU_PROOF_FIXED_CYCLES, PMU_FIXED(1), 0x3C, 0x00, PMU_OS | PMU_USR);
    if ((d->fixed_mask >> 2) & 1) /* the pseudo event 00H/03 of pmu_events_arch_fixed */
        pmu_set_proof(d, PMU_PROOF_FIXED_REF, PMU_FIXED(2), 0x00, 0x03, PMU_OS | PMU_USR);
}
