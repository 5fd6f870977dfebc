/* Run a piece of code so that an unexpected fault aborts only that piece.
 * Bare metal: the exception handler longjmps back here. Hosted: signals. */
#ifndef CK_GUARD_H
#define CK_GUARD_H
#include "fault.h"

typedef void (*guarded_fn)(void *arg);

/* guard_run() (platform.h) runs fn(arg) under the installed platform's guard. */

/* Provided by the run (kernel/run/abort.c) for a fault no guard catches:
 * the fault record, an error note and the end record. The platform then
 * stops the machine or the process. */
void run_abort_unguarded(const char *where, const struct fault_info *info);

#endif
