/* The shared counting bed (sim_arch.h). */
#include <string.h>
#include "sim_arch.h"

int sim_bind_arch_v4(struct msr_sim *s, struct pmu_driver *d)
{
    static struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_CPUID;
    c.vendor = VENDOR_INTEL;
    c.family = 6;
    c.model = 0x8F;
    c.features[FW_1_EDX] = (1u << 4) | (1u << 5); /* TSC, MSR */
    c.perfmon.version = 4;
    c.perfmon.gp_counters = 4;
    c.perfmon.gp_width = 48;
    c.perfmon.fixed_counters = 3;
    c.perfmon.fixed_width = 48;
    sim_init_arch(s, 4, 4, 48, 3, 48);
    pmu_bind(d, PMU_ARCH, &c, sim_ops(s));
    return pmu_save(d);
}
