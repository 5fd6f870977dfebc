#ifndef CK_BARE_PIT_H
#define CK_BARE_PIT_H
#include <stdbool.h>
#include <stdint.h>

bool pit_calibrate_tsc(uint64_t *hz, const char **source);
void pit_free_run(void);

#endif
