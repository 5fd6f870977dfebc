/* The run as a composition root (kernel/bare/kmain.c, kernel/hosted/main.c)
 * starts it: the one call into kernel/run/ from the outer rooms. */
#ifndef CK_RUN_H
#define CK_RUN_H
#include <stdbool.h>
#include "platform/platform.h"

/* What may take the suite's place in a run (the serial session,
 * kernel/serve/): a room above run/, so the main hands it over instead of
 * run/ naming it. */
struct run_session {
    /* Asked once the phases before the suite are done; true takes over. */
    bool (*wanted)(const struct platform *p);
    /* Runs instead of the suite; returns its worst status. */
    int (*run)(const struct platform *p);
};

/* Installs the end of the log for a fault no guard catches (abort.c), as
 * the guard's abort hook: the mains call it first, before anything can
 * fault. */
void run_install_abort(void);

/* The whole run, begin record to end record; returns the run status.
 * session may be NULL: the suite always runs. */
int run_suite(const struct platform *p, const struct run_session *session);

#endif
