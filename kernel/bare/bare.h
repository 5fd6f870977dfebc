/* The parts of the bare-metal platform that kmain puts into its struct
 * platform (the console's out is in console/console.h). */
#ifndef CK_BARE_H
#define CK_BARE_H
#include "platform/platform.h"

extern const struct msr_ops bare_msr;                                   /* traps/safe.c */
extern const struct cpu_probe_ops bare_cpu_ops;                          /* cpu_ops.c */

#endif
