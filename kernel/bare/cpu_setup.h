#ifndef CK_BARE_CPU_SETUP_H
#define CK_BARE_CPU_SETUP_H

#include <stddef.h>

/* struct platform's after_cpu_probe: interrupts quiet, CR0/CR4 set. */
void bare_cpu_setup(char *said, size_t size);
void fpu_reset(void);
/* struct platform's after_fault and state_check (platform.h). */
void bare_after_fault(void);
const char *bare_state_check(void);

#endif
