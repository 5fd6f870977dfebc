/* What happens on an exception: a wrapped instruction resumes at its fixup;
 * inside guard_run() the guarded code is abandoned; anywhere else the fault
 * is reported, the log is closed and the machine stops. */
#include "platform/platform.h"
#include "platform/fault.h"
#include "bare/bare.h"
#include "platform/guard.h"
#include "bare/io.h"
#include "bare/machine.h"
#include "bare/console/console.h"
#include "safe.h"
#include "isr_frame.h"
#include "watchdog.h"
#include "platform/status.h"


struct extable_entry {
    uint32_t insn, fixup;
};
extern const struct extable_entry __start_ck_extable[], __stop_ck_extable[];

static volatile int in_handler;
static volatile unsigned nmi_count; /* NMIs that arrived anyway (none expected) */

void fault_capture(const struct isr_frame *f, uint32_t esp, struct fault_info *info)
{
    info->vector = f->vector;
    info->error_code = f->error_code;
    info->eip = f->eip;
    info->cs = f->cs;
    info->eflags = f->eflags;
    info->cr0 = read_cr0();
    info->cr2 = read_cr2();
    uint32_t cr4 = 0;
    /* CR4 may not exist (386/486): the safe read is itself a wrapped
     * instruction, handled by the exception-table path above any recursion. */
    info->cr4 = read_cr4_safe(&cr4) ? 0 : cr4;
    info->eax = f->eax;
    info->ebx = f->ebx;
    info->ecx = f->ecx;
    info->edx = f->edx;
    info->esi = f->esi;
    info->edi = f->edi;
    info->ebp = f->ebp;
    info->esp = esp;
}

void fault_dispatch_at(struct isr_frame *f, uint32_t esp)
{
    if (f->vector == VEC_NMI) { /* not a fault: count it, carry on */
        nmi_count++;
        return;
    }
    if (f->vector == VEC_APIC_SPURIOUS)
        return; /* no EOI for the spurious vector (SDM Vol. 3A §11.9) */
    uint32_t bound_ms = 0;
    if (f->vector == VEC_WATCHDOG && (bound_ms = watchdog_fired()) == 0)
        return; /* a stale expiry from an earlier, already disarmed, bound */
    for (const struct extable_entry *e = __start_ck_extable; e < __stop_ck_extable; e++) {
        if (e->insn == f->eip) {
            fault_last_code = FAULT_CODE(f->vector);
            f->eip = e->fixup;
            return;
        }
    }
    if (in_handler) { /* a fault while handling one: say so as plainly as possible and stop */
        console_last_words("\nFAULT %s at EIP 0x%08x while handling a fault; stopping\n",
                    fault_name(f->vector), (unsigned)f->eip);
        machine_exit(STATUS_KERNEL_FAULT);
    }
    in_handler = 1;
    struct fault_info info;
    fault_capture(f, esp, &info);
    info.expected = bound_ms;
    info.seen = 0;
    if (guard_active()) {
        in_handler = 0;
        guard_fault(&info);
    }
    guard_abort("kernel (no guard)", &info);
    machine_exit(STATUS_KERNEL_FAULT);
}

void fault_dispatch(struct isr_frame *f)
{
    /* Same privilege level: no stack switch, the faulting ESP is just above the frame. */
    fault_dispatch_at(f, (uint32_t)&f->eflags + 4);
}
