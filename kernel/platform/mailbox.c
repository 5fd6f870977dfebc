/* See mailbox.h. */
#include "mailbox.h"
#include "smp.h"

#define BARRIER() __asm__ volatile("" ::: "memory")

bool mailbox_post(struct mailbox *m, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg)
{
    if (m->state != MAILBOX_READY || m->cmd)
        return false;
    m->fn = fn;
    m->arg = arg;
    BARRIER();
    m->cmd = 1;
    return true;
}

bool mailbox_finished(const struct mailbox *m)
{
    return m->cmd == 0 || m->state == MAILBOX_FAULTED;
}

int mailbox_outcome(const struct mailbox *m, uintptr_t *result)
{
    if (m->state == MAILBOX_FAULTED)
        return SMP_LOST;
    if (m->cmd)
        return SMP_BUSY;
    if (result)
        *result = m->result;
    return SMP_DONE;
}

void mailbox_call(struct mailbox *m)
{
    m->state = MAILBOX_BUSY;
    m->result = m->fn(m->arg);
}

void mailbox_end(struct mailbox *m)
{
    m->state = MAILBOX_READY;
    BARRIER();
    m->cmd = 0;
}
