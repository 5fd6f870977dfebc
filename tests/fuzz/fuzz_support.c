/* What the fuzz targets link besides the kernel's portable code: the whole
 * library is linked (so every option registers), and the harness and the
 * probe in it need a guard and CPU ops. out_write() and the refused MSR
 * path come from tests/unit/support/capture.c. */
#include "cpu/cpu.h"
#include "platform/guard.h"

int guard_run(guarded_fn fn, void *arg, struct fault_info *info)
{
    (void)info;
    fn(arg);
    return 0;
}

static bool never_toggles(uint32_t mask) { (void)mask; return false; }
static bool no_fpu(void) { return false; }
static struct cpuid_regs no_cpuid(uint32_t leaf, uint32_t sub)
{
    (void)leaf, (void)sub;
    return (struct cpuid_regs){ 0, 0, 0, 0 };
}
const struct cpu_probe_ops platform_cpu_ops = { never_toggles, no_fpu, no_cpuid };
