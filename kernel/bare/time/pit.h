#ifndef CK_BARE_PIT_H
#define CK_BARE_PIT_H
#include <stdbool.h>
#include <stdint.h>

bool pit_calibrate_tsc(uint64_t *hz, const char **source, bool brief);
void pit_free_run(void);
/* Channel 2's count now (after pit_free_run: down from 65536 at 1.193182 MHz;
 * during a one-shot: the ticks still to go). */
uint16_t pit_read2(void);
/* Channel 2 counts `count` ticks once (mode 0); done when OUT2 goes high. */
void pit_one_shot(uint16_t count);
bool pit_one_shot_done(void);

#endif
