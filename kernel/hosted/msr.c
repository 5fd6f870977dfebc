/* Ring 3 has no RDMSR/WRMSR: every access is refused before any instruction
 * runs, so PMU drivers and SMI checks see a clean "not in ring 0". */
#include <stdint.h>

#include "platform/fault.h"
#include "hosted.h"

static int refuse_read(void *ctx, uint32_t msr, uint64_t *value)
{
    (void)ctx;
    (void)msr;
    *value = 0;
    return MSR_ERR_NOT_RING0;
}

static int refuse_write(void *ctx, uint32_t msr, uint64_t value)
{
    (void)ctx;
    (void)msr;
    (void)value;
    return MSR_ERR_NOT_RING0;
}

const struct msr_ops hosted_msr = { refuse_read, refuse_write, 0 };
