/* The double fault in long mode: the CPU switched to IST1's stack (the
 * 64-bit TSS, long_idt.c; SDM Vol. 3A §6.14.5), so even a fault that
 * leaves no usable stack (the self-test's overflow) arrives here, in
 * compatibility mode on that stack, through long_isr.S. Reported like the
 * 32-bit double-fault task does it: the fault record, an error note and
 * the end record, then the kernel-fault status. Paging stays on: the map
 * covers all of the first 4 GiB, framebuffer included. */
#include "platform/guard.h"
#include "platform/status.h"
#include "bare/machine.h"
#include "bare/traps/isr_frame.h"

void long_double_fault(struct isr_frame *f, uint32_t esp);

void long_double_fault(struct isr_frame *f, uint32_t esp)
{
    struct fault_info info = { 0 };
    fault_capture(f, esp, (const struct isr_regs64 *)((const uint8_t *)f + ISR64_FRAME_PAD), &info);
    guard_abort("double fault (handled on its own stack, IST1)", &info);
    machine_exit(STATUS_KERNEL_FAULT);
}
