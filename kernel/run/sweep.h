/* The event sweep (sweep=): one benchmark, every event of the counter table. */
#ifndef CK_SWEEP_H
#define CK_SWEEP_H
#include "platform/platform.h"

/* Counts settings.sweep's benchmark for each event the driver has (a
 * sweep record), or says why not (a note or a skip). Returns the status. */
int event_sweep(const struct platform *p);

#endif
