/* The bare platform's smp_start hook (struct platform, platform/smp.h). */
#ifndef CK_BARE_SMP_BARE_H
#define CK_BARE_SMP_BARE_H
#include "platform/smp.h"

void bare_smp_start(const struct smp_request *req, struct smp_info *out);
bool bare_smp_call(unsigned slot, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg);
int bare_smp_wait(unsigned slot, uint32_t ms, uintptr_t *result);
/* The boot processor's local APIC as bare_smp_start opened it. */
struct lapic;
const struct lapic *bare_smp_lapic(void);

#endif
