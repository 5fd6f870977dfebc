/* The hardware side of identification in ring 3. The EFLAGS.AC/ID toggle
 * test works unchanged (POPF may change AC and ID at any privilege level;
 * only IF and IOPL are protected), the x87 test needs no CR0 access because
 * Linux has the FPU enabled, and CPUID is unprivileged (barring CPUID
 * faulting, which Linux does not enable for ordinary processes).
 * Method: Intel AP-485, sections on EFLAGS.AC/ID and on FPU detection. */
#include "cpu/cpu.h"
#include "cpu/cpu_eflags.h"
#include "cpu/cpuid.h"
#include "hosted.h"


/* FNINIT then FNSTSW must give a zero status word and FNSTCW the reset
 * control word 0x037F ((cw & 0x103F) == 0x003F), as in AP-485. */
static bool fpu_present(void)
{
    uint16_t status = 0x5a5a, control = 0x5a5a;
    __asm__ volatile("fninit\n\t"
                     "fnstsw %0"
                     : "+m"(status)
                     :
                     : "memory");
    if ((status & 0xff) != 0)
        return false;
    __asm__ volatile("fnstcw %0" : "+m"(control) : : "memory");
    return (control & 0x103f) == 0x003f;
}

static struct cpuid_regs hosted_cpuid(uint32_t leaf, uint32_t subleaf)
{
    return cpuid_raw(leaf, subleaf);
}

const struct cpu_probe_ops hosted_cpu_ops = {
    .eflags_toggles = cpu_eflags_toggles,
    .fpu_present = fpu_present,
    .cpuid = hosted_cpuid,
};
