/* A fault outside every guarded step (in the platform's own start-up, or a
 * bug in the run itself): both platforms end the log the same way before
 * they stop. */
#include "platform/guard.h"
#include "platform/status.h"
#include "report/log.h"
#include "report/write.h"

void run_abort_unguarded(const char *where, const struct fault_info *info)
{
    write_fault(where, info);
    log_note("error", "fault", "unexpected fault outside any guarded phase; stopping");
    log_end(STATUS_KERNEL_FAULT);
}
