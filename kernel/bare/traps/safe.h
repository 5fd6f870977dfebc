/* Fault-safe privileged instructions (bare metal). Each returns 0, or
 * FAULT_CODE(vector) when the instruction faulted: the exception table maps
 * its address to a resume point, so a #GP or #UD never takes the kernel down.
 * To wrap another instruction the same way: label it, add a fixup that loads
 * fault_last_code, and list both with SAFE_EXTABLE (see safe.c). */
#ifndef CK_BARE_SAFE_H
#define CK_BARE_SAFE_H
#include <stdint.h>

extern volatile uint32_t fault_last_code;

#define SAFE_EXTABLE(insn, fixup)                                                  \
    ".pushsection ck_extable,\"a\"\n.balign 4\n.long " #insn ", " #fixup "\n.popsection\n"

int rdmsr_safe(uint32_t msr, uint64_t *value);
int wrmsr_safe(uint32_t msr, uint64_t value);
int rdpmc_safe(uint32_t counter, uint64_t *value);
int read_cr4_safe(uint32_t *value);
int write_cr4_safe(uint32_t value);
int xsetbv_safe(uint32_t xcr, uint64_t value);

#endif
