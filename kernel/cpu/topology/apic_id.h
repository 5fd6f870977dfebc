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

/* The processor this runs on, by its own CPUID: its APIC ID (the rule
 * above) and its hybrid core type (leaf 0x1A EAX[31:24] where
 * CPUID.7.0:EDX[15] says the part is hybrid, else 0; SDM Vol. 2A, CPUID).
 * For a processor that is not the one identified at boot: an application
 * processor, a pinned thread. Needs CPUID (callers run where it exists). */
void cpu_identify_self(uint32_t *apic_id, unsigned *core_type);

#endif
