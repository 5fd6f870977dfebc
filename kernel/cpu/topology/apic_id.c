/* See apic_id.h. */
#include "apic_id.h"

uint32_t apic_id_from_cpuid(uint32_t max_leaf, uint32_t leaf1_ebx, uint32_t leafb_ebx,
                            uint32_t leafb_edx)
{
    if (max_leaf >= 0xb && (leafb_ebx & 0xffff) != 0)
        return leafb_edx;
    return leaf1_ebx >> 24;
}
