/* The boot processor's side of a mailbox (ap.h): post a function to a
 * waiting processor, wait for it with a PIT-measured bound. */
#include "ap.h"
#include "smp_bare.h"
#include "smp_wait.h"

bool bare_smp_call(unsigned slot, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg)
{
    if (slot >= SMP_MAX_CPUS)
        return false;
    struct ap_box *box = &ap_boxes[slot];
    if (box->state != AP_READY || box->cmd)
        return false;
    box->fn = fn;
    box->arg = arg;
    __asm__ volatile("" ::: "memory"); /* x86 keeps stores in order (SDM Vol. 3A §8.2.2) */
    box->cmd = 1;
    return true;
}

static bool finished(void *p)
{
    const struct ap_box *box = p;
    return box->cmd == 0 || box->state == AP_FAULTED;
}

int bare_smp_wait(unsigned slot, uint32_t ms, uintptr_t *result)
{
    struct ap_box *box = &ap_boxes[slot];
    if (!finished(box))
        smp_wait_us(ms * 1000u, finished, box);
    if (box->state == AP_FAULTED)
        return SMP_LOST;
    if (box->cmd)
        return SMP_BUSY;
    if (result)
        *result = box->result;
    return SMP_DONE;
}
