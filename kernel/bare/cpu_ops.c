/* The hardware side of identification in ring 0 (cpu/cpu_native.h), with
 * CR0 prepared for the x87 test. Everything else is portable and tested on
 * the host with simulated ops (kernel/cpu/cpu_probe.c). */
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "bare/bare.h"

/* CR0.EM and CR0.TS are cleared for the test so it cannot raise #NM, and
 * CR0 is restored afterwards (Intel AP-485, FPU detection). */
static bool fpu_present(void)
{
    uint32_t cr0;
    __asm__ volatile("movl %%cr0, %0" : "=r"(cr0));
    uint32_t test_cr0 = cr0 & ~((1u << 2) | (1u << 3)); /* EM, TS */
    __asm__ volatile("movl %0, %%cr0" : : "r"(test_cr0) : "memory");
    bool present = cpu_x87_answers();
    __asm__ volatile("movl %0, %%cr0" : : "r"(cr0) : "memory");
    return present;
}

/* XGETBV (SDM Vol. 2C): ECX selects the XCR; #UD unless CR4.OSXSAVE is
 * set, so the cpu room calls it only where CPUID.1:ECX.OSXSAVE says so.
 * Post-P5: kept out of the checked core. */
__attribute__((section(".text.needs"), noinline)) static uint64_t xgetbv(uint32_t xcr)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
    return ((uint64_t)hi << 32) | lo;
}

const struct cpu_probe_ops bare_cpu_ops = {
    .eflags_toggles = cpu_eflags_toggles,
    .fpu_present = fpu_present,
    .cpuid = cpu_cpuid_native,
    .rdtsc = cpu_rdtsc_native,
    .xgetbv = xgetbv,
};
