/* The CPUID instruction, raw. Only kernel/cpu* may call it for
 * identification; everything else reads struct cpu_info (cpu.h).
 * (Timing code may execute CPUID as a serializing instruction.) */
#ifndef CK_CPUID_H
#define CK_CPUID_H
#include <stdint.h>

struct cpuid_regs { uint32_t eax, ebx, ecx, edx; };

static inline struct cpuid_regs cpuid_raw(uint32_t leaf, uint32_t subleaf)
{
    struct cpuid_regs r;
    __asm__ volatile("cpuid"
                     : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
                     : "a"(leaf), "c"(subleaf));
    return r;
}

#endif
