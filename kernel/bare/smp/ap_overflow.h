/* The smpfaultkind=overflow test (ap_overflow.c). */
#ifndef CK_BARE_AP_OVERFLOW_H
#define CK_BARE_AP_OVERFLOW_H
#include <stdbool.h>

/* Makes the page below slot's stack not present and pushes until the stack
 * is gone: a double fault on the AP's own double-fault stack. Returns only
 * where no such page can be made (then the caller faults otherwise). */
void ap_overflow(unsigned slot, bool long_mode);

#endif
