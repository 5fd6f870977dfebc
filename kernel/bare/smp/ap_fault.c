/* What an application processor does with a fault: it writes the vector,
 * error code and address into its own mailbox, marks it faulted (the boot
 * processor sees that and abandons it) and stops with interrupts off. It
 * never touches the boot processor's guard or log: it reports, nothing more.
 * Which processor faulted follows from the stack the handler runs on: each
 * has its own stack and double-fault stack (ap_tables.c). */
#include "ap.h"
#include "ap_fault.h"
#include "ap_tables.h"
#include "platform/fault.h"

static void __attribute__((noreturn)) park(void)
{
    for (;;)
        __asm__ volatile("cli; hlt");
}

static void __attribute__((noreturn)) report(uintptr_t sp, uint32_t vector, uint32_t error, uint32_t eip)
{
    int slot = ap_slot_of(sp);
    if (slot >= 0) {
        struct ap_box *box = &ap_boxes[slot];
        box->fault_vector = vector;
        box->fault_error = error;
        box->fault_eip = eip;
        __asm__ volatile("" ::: "memory"); /* the state last: the boot processor reads the rest after it */
        box->mb.state = MAILBOX_FAULTED;
    }
    park();
}

void ap_fault(const uint32_t *frame)
{
    report((uintptr_t)frame, frame[0], frame[1], frame[2]);
}

/* The frame is on the stack the CPU used: the AP's own, or its IST1 stack
 * for a double fault. */
void ap_fault_at(struct isr_frame *f, uint32_t esp)
{
    (void)esp;
    report((uintptr_t)f, f->vector, f->error_code, f->eip);
}

/* The 32-bit double-fault task: the task switch (SDM Vol. 3A §7.3) saved
 * the interrupted state in the AP's main TSS and started here on the AP's
 * double-fault stack. The error code of #DF is always 0 (§6.15 Interrupt 8)
 * and was pushed on this stack. */
void ap_double_fault_task(void) __attribute__((noreturn));
__asm__(".text\n"
        ".globl ap_double_fault_entry\n"
        "ap_double_fault_entry:\n"
        "  call ap_double_fault_task\n"
        "1: cli\n hlt\n jmp 1b\n");

void ap_double_fault_task(void)
{
    uint32_t here = 0;
    __asm__ volatile("movl %%esp, %0" : "=r"(here));
    int slot = ap_slot_of(here);
    report(here, VEC_DF, 0, slot >= 0 ? ap_main_tss((unsigned)slot)->eip : 0);
}
