/* Run a piece of code so that an unexpected fault aborts only that piece.
 * Bare metal: the exception handler longjmps back here. Hosted: signals. */
#ifndef CK_GUARD_H
#define CK_GUARD_H
#include "fault.h"

typedef void (*guarded_fn)(void *arg);

/* Runs fn(arg). Returns 0 when it returned normally, FAULT_CODE(vector)
 * when it faulted; then *info (if not NULL) holds what the handler saw. */
int guard_run(guarded_fn fn, void *arg, struct fault_info *info);

/* Provided by the run (kernel/run/abort.c) for a fault no guard catches:
 * the fault record, an error note and the end record. The platform then
 * stops the machine or the process. */
void run_abort_unguarded(const char *where, const struct fault_info *info);

#endif
