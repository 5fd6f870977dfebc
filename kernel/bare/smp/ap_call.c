/* The boot processor's side of a mailbox (platform/mailbox.h): post a
 * function to a waiting processor, wait for it with a PIT-measured bound. */
#include "ap.h"
#include "lapic.h"
#include "smp_bare.h"
#include "smp_wait.h"

/* A parked processor (halted: ap_park.S) is woken with an NMI once the
 * command is stored; the barrier orders that store before the read of
 * `parked` (ap.c's park orders the other side). */
bool bare_smp_call(unsigned slot, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg)
{
    if (slot >= SMP_MAX_CPUS || !mailbox_post(&ap_boxes[slot].mb, fn, arg))
        return false;
    ap_full_barrier();
    if (ap_boxes[slot].parked)
        (void)lapic_send(bare_smp_lapic(), ap_boxes[slot].apic_id, ICR_NMI);
    return true;
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
