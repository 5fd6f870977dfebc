/* A processor's own APIC ID from its CPUID answers: the rule a started
 * processor applies to itself (bare metal's application processors, the
 * hosted runner's pinned threads), kept pure so it is tested on the host. */
#ifndef CK_CPU_APIC_ID_H
#define CK_CPU_APIC_ID_H
#include <stdint.h>

/* The x2APIC ID of leaf 0xB (EDX) where that leaf exists and subleaf 0
 * reports processors at its level (EBX[15:0] != 0), else the initial APIC
 * ID of leaf 1 (EBX[31:24]) (SDM Vol. 3A §10.4.6, §10.12.8; AMD APM Vol. 3,
 * CPUID Fn0000_0001 EBX and Fn0000_000B). max_leaf: leaf 0's EAX. */
uint32_t apic_id_from_cpuid(uint32_t max_leaf, uint32_t leaf1_ebx, uint32_t leafb_ebx,
                            uint32_t leafb_edx);

#endif
