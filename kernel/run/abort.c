/* A fault no guard can catch: outside every guarded step (the platform's
 * own start-up, a bug in the run), or one that ends the machine's ability
 * to go on (a double fault, even inside a guarded benchmark): both
 * platforms end the log the same way before they stop. The platform's
 * handler reaches this through the guard's abort hook (platform/guard.h),
 * so the contract below never names the run. */
#include "platform/guard.h"
#include "platform/status.h"
#include "record/log.h"
#include "report/write.h"
#include "run.h"

static void abort_unguarded(const char *where, const struct fault_info *info)
{
    write_fault(where, info);
    log_note("error", "fault", "%s: no guard could catch this fault; stopping", where);
    log_end(STATUS_KERNEL_FAULT);
}

void run_install_abort(void)
{
    guard_set_abort_hook(abort_unguarded);
}
