/* The microcode revision (microcode.h). The Intel write is harmless: it only
 * zeroes the signature register, which the CPUID leaf 1 right after it
 * refills with the loaded update's revision (the documented way to read it). */
#include "platform/fault.h"
#include "microcode.h"

static void not_known(struct cpu_microcode *out, const char *reason, int fault, uint32_t msr)
{
    out->known = false;
    out->reason = reason;
    out->fault = fault;
    out->fault_msr = fault ? msr : 0;
}

static const char *refusal(int code)
{
    return code == MSR_ERR_NOT_RING0 ? "the platform refuses MSR access outside ring 0"
                                     : "the MSR access faulted";
}

static const char *eligible(const struct cpu_info *c)
{
    if (c->generation != CPU_GEN_CPUID)
        return "no CPUID instruction";
    if (!cpu_has(c, FEAT_MSR))
        return "CPUID leaf 1 reports no MSRs (EDX bit 5)";
    switch (c->vendor) {
    case VENDOR_INTEL:
        return c->family >= 6 ? NULL
                              : "Intel before the P6 family has no IA32_BIOS_SIGN_ID (MSR 0x8B)";
    case VENDOR_AMD:
    case VENDOR_HYGON:
        return c->family >= 0x10 ? NULL
                                 : "AMD before family 10h documents no patch-level MSR 0x8B";
    default:
        return "no documented microcode revision MSR for this vendor";
    }
}

void cpu_microcode_read(const struct cpu_info *c, const struct cpu_probe_ops *ops,
                        const struct msr_ops *msr, struct cpu_microcode *out)
{
    uint64_t v = 0;
    int err;
    const char *why = eligible(c);
    if (why) {
        not_known(out, why, 0, 0);
        return;
    }
    if (c->vendor == VENDOR_INTEL) {
        err = msr_write(msr, MSR_BIOS_SIGN_ID, 0);
        if (err) {
            not_known(out, refusal(err), err, MSR_BIOS_SIGN_ID);
            return;
        }
        (void)ops->cpuid(1, 0); /* loads the revision into MSR 0x8B bits 63:32 */
    }
    err = msr_read(msr, MSR_BIOS_SIGN_ID, &v);
    if (err) {
        not_known(out, refusal(err), err, MSR_BIOS_SIGN_ID);
        return;
    }
    out->known = true;
    out->revision = c->vendor == VENDOR_INTEL ? (uint32_t)(v >> 32) : (uint32_t)v;
    out->reason = NULL;
    out->fault = 0;
    out->fault_msr = 0;
}
