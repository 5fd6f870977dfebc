#ifndef CK_BARE_PIT_H
#define CK_BARE_PIT_H
#include <stdbool.h>
#include <stdint.h>

bool pit_calibrate_tsc(uint64_t *hz, const char **source);
void pit_free_run(void);
/* Channel 2's count now (after pit_free_run: down from 65536 at 1.193182 MHz). */
uint16_t pit_read2(void);

#endif
