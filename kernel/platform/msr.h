/* Model-specific register access as an interface, so that drivers can be
 * driven by the real CPU (ring 0), refused cleanly (ring 3, hosted runner),
 * or a simulated MSR file (unit tests).
 *
 * Results: 0 on success; otherwise a fault code (see fault.h: FAULT_CODE(v)),
 * never a crash. */
#ifndef CK_MSR_H
#define CK_MSR_H
#include <stdint.h>

struct msr_ops {
    int (*read)(void *ctx, uint32_t msr, uint64_t *value);
    int (*write)(void *ctx, uint32_t msr, uint64_t value);
    void *ctx;
};

/* The platform's own MSR access is platform->msr (platform.h): bare metal
 * RDMSR/WRMSR through the exception table; hosted: always refused with
 * MSR_ERR_NOT_RING0. */

static inline int msr_read(const struct msr_ops *ops, uint32_t msr, uint64_t *v)
{
    return ops->read(ops->ctx, msr, v);
}
static inline int msr_write(const struct msr_ops *ops, uint32_t msr, uint64_t v)
{
    return ops->write(ops->ctx, msr, v);
}

#endif
