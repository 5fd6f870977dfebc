/* The run's first TSC read, before identification (for the run id in the
 * begin record): only where EFLAGS.ID toggles and CPUID leaf 1 reports a TSC
 * (EDX bit 4), through the platform's ops. */
#include "cpu.h"

bool cpu_first_tsc(const struct cpu_probe_ops *ops, uint64_t *tsc)
{
    if (!ops || !ops->rdtsc || !ops->eflags_toggles(EFLAGS_ID))
        return false;
    if (ops->cpuid(0, 0).eax < 1 || !((ops->cpuid(1, 0).edx >> 4) & 1))
        return false;
    *tsc = ops->rdtsc();
    return true;
}
