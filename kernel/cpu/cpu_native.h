/* What identification executes on the CPU itself, the same in ring 0 and
 * ring 3 (32-bit code only: bare metal and the hosted runner), so both
 * platforms' cpu_ops are built from these. Method: Intel AP-485, "Intel
 * Processor Identification and the CPUID Instruction", sections on
 * EFLAGS.AC/ID and on FPU detection. */
#ifndef CK_CPU_NATIVE_H
#define CK_CPU_NATIVE_H
#include <stdbool.h>
#include <stdint.h>
#include "cpuid.h"

/* POPF may change AC and ID at any privilege level; only IF and IOPL are
 * protected. EFLAGS is restored. */
/* Flip `mask` in EFLAGS and see whether it sticks. */
#ifdef __x86_64__
/* The 64-bit hosted runner: the same test with the 64-bit stack forms
 * (PUSHFQ/POPFQ; PUSHFD/POPFD do not exist in 64-bit mode, SDM Vol. 2B). */
static inline bool cpu_eflags_toggles(uint32_t mask)
{
    uint64_t before, after;
    __asm__ volatile("pushfq\n\t"
                     "pushfq\n\t"
                     "popq %0\n\t"
                     "movq %0, %1\n\t"
                     "xorq %q2, %1\n\t"
                     "pushq %1\n\t"
                     "popfq\n\t"
                     "pushfq\n\t"
                     "popq %1\n\t"
                     "popfq"
                     : "=&r"(before), "=&r"(after)
                     : "r"((uint64_t)mask)
                     : "cc", "memory");
    return ((before ^ after) & mask) != 0;
}
#else
static inline bool cpu_eflags_toggles(uint32_t mask)
{
    uint32_t before, after;
    __asm__ volatile("pushfl\n\t"       /* saved copy to restore */
                     "pushfl\n\t"
                     "popl %0\n\t"
                     "movl %0, %1\n\t"
                     "xorl %2, %1\n\t"
                     "pushl %1\n\t"
                     "popfl\n\t"
                     "pushfl\n\t"
                     "popl %1\n\t"
                     "popfl"
                     : "=&r"(before), "=&r"(after)
                     : "ir"(mask)
                     : "cc", "memory");
    return ((before ^ after) & mask) != 0;
}
#endif

/* FNINIT then FNSTSW: an x87 writes a zero status word; without one the
 * preset pattern stays. FNSTCW then confirms: after FNINIT the control word
 * is 0x037F, so (cw & 0x103F) == 0x003F. The no-wait forms cannot hang
 * without a coprocessor. (Ring 0 must clear CR0.EM/TS around it first.) */
static inline bool cpu_x87_answers(void)
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

static inline struct cpuid_regs cpu_cpuid_native(uint32_t leaf, uint32_t subleaf)
{
    return cpuid_raw(leaf, subleaf);
}

/* RDTSC (CR4.TSD is clear in both platforms' ring). */
static inline uint64_t cpu_rdtsc_native(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

#endif
