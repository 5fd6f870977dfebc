/* Run a piece of code so that an unexpected fault aborts only that piece
 * (guard.c). The platforms only catch the fault (bare: the exception
 * handler; hosted: a signal handler) and hand it to guard_fault(). */
#ifndef CK_GUARD_H
#define CK_GUARD_H
#include <stdbool.h>
#include "fault.h"

typedef void (*guarded_fn)(void *arg);

/* Runs fn(arg). Returns 0 when it returned normally, FAULT_CODE(vector)
 * when it faulted; then *info (if not NULL) holds what the handler saw.
 * Guards nest: a fault goes to the innermost. */
int guard_run(guarded_fn fn, void *arg, struct fault_info *info);

/* For a platform's fault handler: is some guard_run() active? Then
 * guard_fault() abandons its code and returns there (it does not return). */
bool guard_active(void);
void guard_fault(const struct fault_info *info) __attribute__((noreturn));

/* A fault no guard catches (outside every guarded step, or a double fault):
 * the platform's handler calls guard_abort(), which runs the hook the run
 * installed (kernel/run/abort.c: the fault record, an error note and the
 * end record; nothing while none is installed), then stops the machine or
 * the process itself. The hook keeps this room from naming the rooms above
 * it (docs/architecture.md, the rooms). */
typedef void (*guard_abort_fn)(const char *where, const struct fault_info *info);
void guard_set_abort_hook(guard_abort_fn fn);
void guard_abort(const char *where, const struct fault_info *info);

#endif
