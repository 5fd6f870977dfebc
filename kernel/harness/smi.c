#include "cpu/cpu.h"
#include "platform/platform.h"
#include "smi.h"

#define MSR_SMI_COUNT 0x34

bool smi_count(uint64_t *count)
{
    /* Only where it is documented: the MSR index means nothing elsewhere. */
    if (cpu->vendor != VENDOR_INTEL || cpu->family != 6 || cpu->model < 0x1a ||
        !cpu_has(cpu, FEAT_MSR))
        return false;
    uint64_t v;
    if (msr_read(platform->msr, MSR_SMI_COUNT, &v) != 0)
        return false;
    *count = v & 0xffffffffu; /* bits 31:0 count; the rest is reserved */
    return true;
}
