/* The microcode revision, read fault-safely through an MSR path (bare metal:
 * RDMSR/WRMSR through the exception table; hosted: refused; unit tests: the
 * simulated MSR file). Read once by the run after identification; the cpu
 * record carries it ("microcode": N, or null and "microcode_reason"). */
#ifndef CK_MICROCODE_H
#define CK_MICROCODE_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu.h"
#include "platform/msr.h"

#define MSR_BIOS_SIGN_ID 0x8Bu /* Intel IA32_BIOS_SIGN_ID; AMD PATCH_LEVEL */

struct cpu_microcode {
    bool known;            /* revision is valid */
    uint32_t revision;
    const char *reason;    /* why not known (NULL when known) */
    int fault;             /* the MSR access's fault code when it failed, else 0 */
    uint32_t fault_msr;
};

/* Intel (SDM vol. 3A, "Microcode Update Signature"/"Determining the
 * Signature"; vol. 4 IA32_BIOS_SIGN_ID, from family 6): write 0 to MSR 0x8B,
 * execute CPUID leaf 1 (ops->cpuid), read MSR 0x8B: the revision is bits
 * 63:32. AMD and Hygon (family 10h on: MSR0000_008B Patch Level in the
 * BKDGs/PPRs): read MSR 0x8B: the patch level is bits 31:0. Only where CPUID
 * leaf 1 says MSRs exist; other vendors and families: not known, with why. */
void cpu_microcode_read(const struct cpu_info *c, const struct cpu_probe_ops *ops,
                        const struct msr_ops *msr, struct cpu_microcode *out);

#endif
