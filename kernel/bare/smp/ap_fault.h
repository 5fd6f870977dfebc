/* An application processor's fault handlers (ap_fault.c): each reports
 * into the processor's mailbox and parks it. */
#ifndef CK_BARE_AP_FAULT_H
#define CK_BARE_AP_FAULT_H
#include <stdint.h>
#include "bare/traps/isr_frame.h"

/* The 32-bit stubs (ap_entry.S): frame = vector, error, EIP, CS, EFLAGS. */
void ap_fault(const uint32_t *frame) __attribute__((noreturn));
/* The 64-bit stubs (ap_isr64.S), in compatibility mode. */
void ap_fault_at(struct isr_frame *f, uint32_t esp) __attribute__((noreturn));
/* The 32-bit double-fault task's first instruction (its TSS's EIP). */
void ap_double_fault_entry(void);

#endif
