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
#include "sample_hook.h"
#include "platform/status.h"
#include "lib/kstring.h"
#include "gdt.h"


struct extable_entry {
    uint32_t insn, fixup;
};
extern const struct extable_entry __start_ck_extable[], __stop_ck_extable[];

static volatile int in_handler;
uint32_t (*fault_sample_hook)(uint32_t vector, uint64_t ip);
volatile bool fault_sample_nmi;
static volatile unsigned nmi_count; /* NMIs that arrived anyway (none expected) */

/* Long mode: the whole registers, when the faulting code ran in 64-bit mode
 * (CS the 64-bit selector); the kernel's own compatibility-mode code keeps
 * the 32-bit dump. */
static void capture64(const struct isr_frame *f, const struct isr_regs64 *r, struct fault_info *info)
{
    if (!r || (r->cs & 0xfffc) != SEL_CODE64)
        return;
    info->bits = 64;
    info->rip = r->rip;
    info->rflags = r->rflags;
    info->cr2_64 = *(const uint64_t *)((const uint8_t *)f + ISR64_CR2_AT);
    const uint64_t regs[GPR_COUNT] = { r->rax, r->rcx, r->rdx, r->rbx, r->rsp, r->rbp, r->rsi, r->rdi,
                                       r->r8, r->r9, r->r10, r->r11, r->r12, r->r13, r->r14, r->r15 };
    kmemcpy(info->gpr, regs, sizeof regs);
}

void fault_capture(const struct isr_frame *f, uint32_t esp, const struct isr_regs64 *r64,
                   struct fault_info *info)
{
    kmemset(info, 0, sizeof *info);
    info->bits = 32;
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
    capture64(f, r64, info);
}

/* The common path of both stubs; r64: the 64-bit registers, or NULL. */
static void dispatch(struct isr_frame *f, uint32_t esp, const struct isr_regs64 *r64)
{
    uint32_t bound_ms = 0;
    if ((f->vector >= VEC_SAMPLE && f->vector <= VEC_IRQ7) || (f->vector == VEC_NMI && fault_sample_nmi)) {
        /* A sample (bare/sampler): recorded and re-armed; a loaded body past
         * its bound is abandoned as the watchdog would. */
        if (!fault_sample_hook || (bound_ms = fault_sample_hook(f->vector, r64 ? r64->rip : f->eip)) == 0)
            return;
        f->vector = VEC_WATCHDOG;
    }
    if (f->vector == VEC_NMI) { /* not a fault: count it, carry on */
        nmi_count++;
        return;
    }
    if (f->vector == VEC_APIC_SPURIOUS)
        return; /* no EOI for the spurious vector (SDM Vol. 3A §11.9) */
    if (f->vector == VEC_WATCHDOG && !bound_ms && (bound_ms = watchdog_fired()) == 0)
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
    fault_capture(f, esp, r64, &info);
    info.expected = bound_ms;
    info.seen = 0;
    if (guard_active()) {
        in_handler = 0;
        guard_fault(&info);
    }
    guard_abort("kernel (no guard)", &info);
    machine_exit(STATUS_KERNEL_FAULT);
}

void fault_dispatch_at(struct isr_frame *f, uint32_t esp)
{
    dispatch(f, esp, (const struct isr_regs64 *)((const uint8_t *)f + ISR64_FRAME_PAD));
}

void fault_dispatch(struct isr_frame *f)
{
    /* Same privilege level: no stack switch, the faulting ESP is just above the frame. */
    dispatch(f, (uint32_t)&f->eflags + 4, NULL);
}
