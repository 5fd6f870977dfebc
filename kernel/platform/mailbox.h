/* The mailbox between the processor that runs the suite and one it started
 * (bare metal's application processors, bare/smp/; the hosted runner's
 * pinned threads, hosted/smp.c): one protocol, whatever carries the waits.
 * The poster writes fn and arg, then cmd; the started side marks itself
 * busy, runs fn(arg), writes result, marks itself ready and clears cmd
 * last. x86 keeps stores in order (SDM Vol. 3A §8.2.2), so the other side
 * sees fn/arg before cmd and result before cmd's clearing; the compiler is
 * kept from reordering them by the barriers in mailbox.c. Each platform's
 * box embeds one, alone in its cache lines. */
#ifndef CK_PLATFORM_MAILBOX_H
#define CK_PLATFORM_MAILBOX_H
#include <stdbool.h>
#include <stdint.h>

enum mailbox_state { MAILBOX_OFF = 0, MAILBOX_READY = 1, MAILBOX_BUSY = 2, MAILBOX_FAULTED = 3 };

struct mailbox {
    volatile uint32_t state;          /* enum mailbox_state: FAULTED is set by its guard */
    volatile uint32_t cmd;
    uintptr_t (*volatile fn)(uintptr_t arg);
    volatile uintptr_t arg, result;
};

/* The poster's side. False: the other side is not waiting in it. */
bool mailbox_post(struct mailbox *m, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg);
/* The command is done, or the other side faulted. */
bool mailbox_finished(const struct mailbox *m);
/* After the wait: SMP_DONE (result filled when not NULL), SMP_BUSY (still
 * running) or SMP_LOST (it faulted). */
int mailbox_outcome(const struct mailbox *m, uintptr_t *result);

/* The started side, once cmd is set: runs the command (state busy); then,
 * unless it faulted, mailbox_end (state ready, cmd cleared). Two calls so a
 * platform can put its guard around the first. */
void mailbox_call(struct mailbox *m);
void mailbox_end(struct mailbox *m);

#endif
