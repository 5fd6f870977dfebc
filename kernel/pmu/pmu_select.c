/* Which counters this CPU has: a pure function of struct cpu_info, so the
 * choice can be checked on the host against recorded CPUs. The choice is
 * only a hypothesis; pmu_prove() decides whether the counters count. The
 * counter architectures follow vendor and family (Intel family 5, AMD K7
 * and later, CPUID leaf 0AH); which family-6 models carry P6 counters is a
 * fact of the model table (cpu/cpu_models.c). */
#include "cpu/cpu_models.h"
#include "pmu.h"
#include "pmu_msr.h"
#include "lib/kstring.h"

static enum pmu_kind choose(const struct cpu_info *c, const char **why)
{
    if (c->generation != CPU_GEN_CPUID) {
        *why = "no CPUID: no model-specific counters known";
        return PMU_NONE;
    }
    if (!cpu_has(c, FEAT_MSR)) {
        *why = "CPUID.1:EDX.MSR is clear: no RDMSR/WRMSR";
        return PMU_NONE;
    }
    switch (c->vendor) {
    case VENDOR_INTEL:
        if (c->perfmon.version >= 1) {
            *why = "Intel with architectural perfmon (CPUID leaf 0AH)";
            return PMU_ARCH;
        }
        if (c->family == 5) {
            *why = "Intel family 5: Pentium CESR/CTR0/CTR1";
            return PMU_P5;
        }
        if (c->family == 6 && cpu_fact(c, CPU_P6_PMU)) {
            *why = "Intel family 6 P6 core: PerfEvtSel0/1, PerfCtr0/1";
            return PMU_P6;
        }
        if (c->family == 6) {
            *why = "Intel family 6 without architectural perfmon in CPUID leaf 0AH (hidden by a hypervisor?)";
            return PMU_NONE;
        }
        if (c->family == 15) {
            *why = "Intel NetBurst (family 15): ESCR/CCCR counters are not supported";
            return PMU_NONE;
        }
        *why = "Intel family without a known counter interface";
        return PMU_NONE;
    case VENDOR_AMD:
    case VENDOR_HYGON:
        if (c->family >= 6) {
            *why = c->family >= 0x15 && cpu_has(c, FEAT_PERFCTR_CORE)
                       ? "AMD family 15h+ with PerfCtrExtCore: six core counters at C001_0200"
                       : "AMD K7 or later: PerfEvtSel/PerfCtr at C001_0000";
            return PMU_AMD;
        }
        *why = "AMD before the K7 (K5/K6): no performance counters supported";
        return PMU_NONE;
    default:
        *why = "no counter driver for this vendor";
        return PMU_NONE;
    }
}

enum pmu_kind pmu_select(const struct cpu_info *c, const char **why)
{
    const char *w = 0;
    enum pmu_kind k = choose(c, &w);
    if (why)
        *why = w;
    return k;
}

const char *pmu_kind_name(enum pmu_kind kind)
{
    switch (kind) {
    case PMU_P5: return "p5";
    case PMU_P6: return "p6";
    case PMU_ARCH: return "intel-arch";
    case PMU_AMD: return "amd";
    case PMU_LINUX: return "linux";
    default: return "none";
    }
}

int pmu_bind(struct pmu_driver *d, enum pmu_kind kind, const struct cpu_info *c, const struct msr_ops *m)
{
    kmemset(d, 0, sizeof *d);
    d->kind = kind;
    d->cpu = c;
    d->msr = m;
    d->name = "none";
    d->fixed_mask = 0;
    switch (kind) {
    case PMU_P5: pmu_p5_bind(d); return 0;
    case PMU_P6: pmu_p6_bind(d); return 0;
    case PMU_ARCH: pmu_arch_bind(d); return 0;
    case PMU_AMD: pmu_amd_bind(d); return 0;
    default: d->kind = PMU_NONE; return PMU_ERR_KIND;
    }
}

/* Counter 0 of the family's own counter MSRs, for the sys/ benchmarks that
 * time RDMSR/WRMSR of a counter: P5 CTR0 (SDM vol. 3B §18.24), IA32_PMC0 on
 * P6 and architectural perfmon (§18.2), PerfCtr0 on AMD K7 and later (AMD
 * APM vol. 2 §13.2). 0: none known. */
uint32_t pmu_counter0_msr(const struct cpu_info *c)
{
    if (c->vendor == VENDOR_INTEL && c->family == 5)
        return MSR_P5_CTR0;
    if (c->vendor == VENDOR_INTEL && (c->family == 6 || c->perfmon.version >= 1))
        return MSR_IA32_PMC0;
    if (c->vendor == VENDOR_AMD && c->family >= 6)
        return MSR_K7_PERFCTR0;
    return 0;
}

/* RDPMC arrived with the Pentium MMX and the Pentium Pro (SDM vol. 3A
 * §2.6.6 / [AP]: "only works on P55C (or later)"); AMD has it from the K7. */
bool pmu_has_rdpmc(const struct cpu_info *c)
{
    return (c->vendor == VENDOR_INTEL && ((c->family == 5 && cpu_has(c, FEAT_MMX)) || c->family >= 6)) ||
           (c->vendor == VENDOR_AMD && c->family >= 6);
}
