/* The 32-bit task-state segment (SDM Vol. 3A §7.2.1, Figure 7-2): the boot
 * processor's double-fault task (double_fault.c) and each application
 * processor's own pair (smp/ap_tables.c) use it. */
#ifndef CK_BARE_TSS_H
#define CK_BARE_TSS_H
#include <stdint.h>

struct tss32 {
    uint16_t link, r0;
    uint32_t esp0;
    uint16_t ss0, r1;
    uint32_t esp1;
    uint16_t ss1, r2;
    uint32_t esp2;
    uint16_t ss2, r3;
    uint32_t cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
    uint16_t es, r4, cs, r5, ss, r6, ds, r7, fs, r8, gs, r9, ldt, r10, trap, iomap;
} __attribute__((packed));
_Static_assert(sizeof(struct tss32) == 104, "SDM Vol. 3A Figure 7-2");

#endif
