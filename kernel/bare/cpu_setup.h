#ifndef CK_BARE_CPU_SETUP_H
#define CK_BARE_CPU_SETUP_H
#include <stdint.h>
#include "boot_info.h"

void bare_cpu_setup(void);
void fpu_reset(void);
void bare_big_memory(uint8_t **base, uint64_t *size);

#endif
