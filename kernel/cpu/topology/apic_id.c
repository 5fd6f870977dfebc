/* See apic_id.h. */
#include "apic_id.h"
#include "cpu/cpu_native.h"

uint32_t apic_id_from_cpuid(uint32_t max_leaf, uint32_t leaf1_ebx, uint32_t leafb_ebx,
                            uint32_t leafb_edx)
{
    if (max_leaf >= 0xb && (leafb_ebx & 0xffff) != 0)
        return leafb_edx;
    return leaf1_ebx >> 24;
}

void cpu_identify_self(uint32_t *apic_id, unsigned *core_type)
{
    uint32_t max = cpu_cpuid_native(0, 0).eax;
    struct cpuid_regs lb = max >= 0xb ? cpu_cpuid_native(0xb, 0) : (struct cpuid_regs){ 0 };
    *apic_id = apic_id_from_cpuid(max, cpu_cpuid_native(1, 0).ebx, lb.ebx, lb.edx);
    *core_type = 0;
    if (max >= 0x1a && ((cpu_cpuid_native(7, 0).edx >> 15) & 1))
        *core_type = cpu_cpuid_native(0x1a, 0).eax >> 24;
}
