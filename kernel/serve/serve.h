/* The serial session (option serve; docs/serve-protocol.md): instead of
 * running the suite and stopping, the kernel answers requests on its input
 * (the serial port; stdin on the hosted runner) with the same JSON records. */
#ifndef CK_SERVE_H
#define CK_SERVE_H
#include <stdbool.h>
#include "platform/platform.h"
#include "run/run.h"

#define SERVE_PROTOCOL 1

/* serve was given; when the platform has no input, notes why and says no
 * (the suite then runs as without serve). */
bool serve_wanted(const struct platform *p);

/* The counters, the timer and the trust check, then requests until `end`
 * (or the input closes). Returns the worst status of the session. */
int serve_run(const struct platform *p);

/* Both, for run_suite(): the mains hand the session to the run. */
extern const struct run_session serve_session;

#endif
