/* The host builds (unit tests, fuzz targets) are 64-bit programs: the
 * kernel's 32-bit-only pieces (the guard's jump, the harness's generated
 * reference body and probe run) are not in their library. These stand in
 * for them, doing only what a host test can do honestly: a guarded
 * function just runs (no fault can be caught here), and no generated code
 * exists to be measured or probed. */
#include <stdio.h>
#include <stdlib.h>
#include "harness/bench.h"
#include "harness/trust.h"
#include "platform/guard.h"

int guard_run(guarded_fn fn, void *arg, struct fault_info *info)
{
    (void)info;
    fn(arg);
    return 0;
}

bool guard_active(void) { return false; }

void guard_fault(const struct fault_info *info)
{
    fprintf(stderr, "host test: fault %u with no guard able to catch it\n", (unsigned)info->vector);
    abort();
}

/* The reference record exists (the harness names it), its code does not. */
const struct bench trust_reference = { .name = "calib/add_chain", .desc = "(no generated code on the host)" };

/* The probe run's hooks (probe.S, probe64.S): the generated function jumps
 * to them instead of its copies. No generated code exists on the host, so
 * nothing ever jumps here. */
const uint8_t ck_probe_hook[1], ck_probe_exit[1];
const uint8_t ck_probe64_hook[1], ck_probe64_exit[1];
