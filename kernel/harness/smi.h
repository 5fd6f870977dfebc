/* System-management interrupts steal time from any sample they land in;
 * Intel counts them in MSR_SMI_COUNT (0x34, Nehalem and later). */
#ifndef CK_SMI_H
#define CK_SMI_H
#include <stdbool.h>
#include <stdint.h>

/* Reads the SMI count; false when this CPU/platform has no readable counter. */
bool smi_count(uint64_t *count);

#endif
