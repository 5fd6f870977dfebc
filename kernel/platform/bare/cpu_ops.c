/* The hardware side of identification (32-bit, ring 0): EFLAGS toggle tests,
 * x87 presence, and the CPUID instruction. Everything else is portable and
 * tested on the host with simulated ops (kernel/cpu_probe.c).
 * Method: Intel AP-485, "Intel Processor Identification and the CPUID
 * Instruction", sections on EFLAGS.AC/ID and on FPU detection. */
#include "cpu/cpu.h"
#include "cpu/cpu_eflags.h"
#include "cpu/cpuid.h"
#include "platform/bare/bare.h"


/* FNINIT then FNSTSW: an x87 writes a zero status word; without one the
 * preset pattern stays. FNSTCW then confirms: after FNINIT the control word
 * is 0x037F, so (cw & 0x103F) == 0x003F (AP-485). The no-wait forms cannot
 * hang without a coprocessor. CR0.EM and CR0.TS are cleared for the test so
 * it cannot raise #NM, and CR0 is restored afterwards. */
static bool fpu_present(void)
{
    uint16_t status = 0x5a5a, control = 0x5a5a;
    uint32_t cr0;
    __asm__ volatile("movl %%cr0, %0" : "=r"(cr0));
    uint32_t test_cr0 = cr0 & ~((1u << 2) | (1u << 3)); /* EM, TS */
    __asm__ volatile("movl %0, %%cr0" : : "r"(test_cr0) : "memory");
    __asm__ volatile("fninit\n\t"
                     "fnstsw %0"
                     : "+m"(status)
                     :
                     : "memory");
    bool present = (status & 0xff) == 0;
    if (present) {
        __asm__ volatile("fnstcw %0" : "+m"(control) : : "memory");
        present = (control & 0x103f) == 0x003f;
    }
    __asm__ volatile("movl %0, %%cr0" : : "r"(cr0) : "memory");
    return present;
}

static struct cpuid_regs platform_cpuid(uint32_t leaf, uint32_t subleaf)
{
    return cpuid_raw(leaf, subleaf);
}

const struct cpu_probe_ops bare_cpu_ops = {
    .eflags_toggles = cpu_eflags_toggles,
    .fpu_present = fpu_present,
    .cpuid = platform_cpuid,
};
