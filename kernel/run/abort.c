/* A fault no guard can catch: outside every guarded step (the platform's
 * own start-up, a bug in the run), or one that ends the machine's ability
 * to go on (a double fault, even inside a guarded benchmark): both
 * platforms end the log the same way before they stop. */
#include "platform/guard.h"
#include "platform/status.h"
#include "record/log.h"
#include "report/write.h"

void run_abort_unguarded(const char *where, const struct fault_info *info)
{
    write_fault(where, info);
    log_note("error", "fault", "%s: no guard could catch this fault; stopping", where);
    log_end(STATUS_KERNEL_FAULT);
}
