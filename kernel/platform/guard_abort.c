/* The last resort after a fault no guard catches (guard.h): the hook the
 * run installs. Apart from guard.c so that it is plain portable C, built
 * wherever the run is (the host unit tests too), while guard.c's jump is
 * 32-bit or 64-bit code of the platform's build. */
#include <stddef.h>
#include "guard.h"

static guard_abort_fn abort_hook;

void guard_set_abort_hook(guard_abort_fn fn)
{
    abort_hook = fn;
}

void guard_abort(const char *where, const struct fault_info *info)
{
    if (abort_hook)
        abort_hook(where, info);
}
