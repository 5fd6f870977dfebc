#include "platform/platform.h"
#include "platform/fault.h"
#include "guarded_step.h"
#include "harness/body_place.h"
#include "record/log.h"
#include "report/write.h"
#include "platform/status.h"

int guarded_step(const struct platform *p, const char *where, guarded_fn fn, void *arg,
                 int fault_status)
{
    return guarded_step_seen(p, where, fn, arg, fault_status, NULL);
}

int guarded_step_seen(const struct platform *p, const char *where, guarded_fn fn, void *arg,
                      int fault_status, struct fault_info *seen)
{
    struct fault_info info;
    int code = guard_run(fn, arg, &info);
    if (!code)
        return STATUS_OK;
    if (p->after_fault)
        p->after_fault();
    body_place_locate(&info); /* a benchmark body's: which copy, which byte */
    write_fault(where, &info);
    if (seen) { /* provoked on purpose (the self-test): a record, not an error */
        *seen = info;
        return fault_status;
    }
    log_note("error", "fault", "%s faulted (%s) and was aborted; the suite goes on", where,
                fault_name(FAULT_VECTOR(code)));
    return fault_status;
}
