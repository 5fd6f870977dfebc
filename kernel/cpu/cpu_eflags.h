/* The EFLAGS toggle test of pre-CPUID identification (32-bit code only:
 * bare metal and the hosted runner). POPF may change AC and ID at any
 * privilege level; only IF and IOPL are protected. EFLAGS is restored.
 * Method: Intel AP-485, sections on EFLAGS.AC/ID. */
#ifndef CK_CPU_EFLAGS_H
#define CK_CPU_EFLAGS_H
#include <stdbool.h>
#include <stdint.h>

/* Flip `mask` in EFLAGS and see whether it sticks. */
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
