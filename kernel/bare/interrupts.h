#ifndef CK_BARE_INTERRUPTS_H
#define CK_BARE_INTERRUPTS_H
#include <stddef.h>
/* Masks every interrupt source we can reach (needs cpu_probe() first) and
 * says what it did in one line. */
void interrupts_quiesce(char *said, size_t size);
#endif
