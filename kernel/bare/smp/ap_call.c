/* The boot processor's side of a mailbox (platform/mailbox.h): post a
 * function to a waiting processor, wait for it with a PIT-measured bound. */
#include "ap.h"
#include "smp_bare.h"
#include "smp_wait.h"

bool bare_smp_call(unsigned slot, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg)
{
    return slot < SMP_MAX_CPUS && mailbox_post(&ap_boxes[slot].mb, fn, arg);
}

static bool finished(void *p)
{
    return mailbox_finished(p);
}

int bare_smp_wait(unsigned slot, uint32_t ms, uintptr_t *result)
{
    struct mailbox *mb = &ap_boxes[slot].mb;
    if (!mailbox_finished(mb))
        smp_wait_us(ms * 1000u, finished, mb);
    return mailbox_outcome(mb, result);
}
