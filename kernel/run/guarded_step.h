/* One step of the run under the fault guard, the same way everywhere: a
 * kernel phase, a benchmark, the event sweep. */
#ifndef CK_GUARDED_STEP_H
#define CK_GUARDED_STEP_H
#include "platform/guard.h"
#include "platform/platform.h"

/* Runs fn(arg). On a fault the platform puts its state back (the FPU), the
 * fault is reported as happening in `where` with an error note, and
 * fault_status is returned; otherwise STATUS_OK. */
int guarded_step(const struct platform *p, const char *where, guarded_fn fn, void *arg,
                 int fault_status);

/* The same for a fault provoked on purpose (the self-test): when seen is not
 * NULL a fault is restored after and written as a fault record, then handed
 * back in *seen, with no error note. */
int guarded_step_seen(const struct platform *p, const char *where, guarded_fn fn, void *arg,
                      int fault_status, struct fault_info *seen);

#endif
