/* The 64-bit exception stubs (long mode only). In IA-32e mode every
 * exception arrives in 64-bit mode through a 16-byte gate, whatever mode
 * the interrupted code ran in, and the CPU always pushes SS:RSP, RFLAGS,
 * CS:RIP (and the error code), 8 bytes each, on a stack aligned down to 16
 * bytes (SDM Vol. 3A §6.14.2, Figure 6-9). Each stub saves all sixteen
 * registers, builds the 32-bit core's struct isr_frame
 * (traps/isr_frame.h) below them, far-returns to compatibility mode (CS =
 * the 32-bit flat code selector) and calls the same C code the 32-bit stubs
 * call. Back in 64-bit mode it writes the (possibly changed, exception
 * table) EIP into the 64-bit frame, restores every register and IRETQs,
 * which returns to the interrupted code in its own mode (the CS in the
 * frame). IRETQ is safe here: paging is on (the 32-bit stubs avoid IRET
 * because of hypervisors that fail on it in unpaged protected mode). Unlike
 * their RET, IRETQ unblocks NMIs after one was counted (SDM Vol. 3A §6.7.1);
 * NMI stays masked at the CMOS port and in the local APIC's LVT anyway.
 *
 * A fault the guard catches never comes back: guard_fault() longjmps, in
 * compatibility mode, to the guard_run() that was active, abandoning the
 * stub's frame with the faulted code.
 *
 * The #DF vector uses IST1 (long_idt.c) and calls long_double_fault(),
 * which reports and stops.
 *
 * The two macros (ISR64, ISR64_COMMON) live in isr64_macros.inc: the
 * application processors' stubs (smp/ap_isr64.S) are made from them too. */
#include "bare/traps/gdt.h"

#include "isr64_macros.inc"

    .section .text.long, "ax"
    .code64
ISR64 0, 0, fault_dispatch_at
ISR64 1, 0, fault_dispatch_at
ISR64 2, 0, fault_dispatch_at
ISR64 3, 0, fault_dispatch_at
ISR64 4, 0, fault_dispatch_at
ISR64 5, 0, fault_dispatch_at
ISR64 6, 0, fault_dispatch_at
ISR64 7, 0, fault_dispatch_at
ISR64 8, 1, long_double_fault
ISR64 9, 0, fault_dispatch_at
ISR64 10, 1, fault_dispatch_at
ISR64 11, 1, fault_dispatch_at
ISR64 12, 1, fault_dispatch_at
ISR64 13, 1, fault_dispatch_at
ISR64 14, 1, fault_dispatch_at
ISR64 15, 0, fault_dispatch_at
ISR64 16, 0, fault_dispatch_at
ISR64 17, 1, fault_dispatch_at
ISR64 18, 0, fault_dispatch_at
ISR64 19, 0, fault_dispatch_at
ISR64 20, 0, fault_dispatch_at
ISR64 21, 1, fault_dispatch_at
ISR64 22, 0, fault_dispatch_at
ISR64 23, 0, fault_dispatch_at
ISR64 24, 0, fault_dispatch_at
ISR64 25, 0, fault_dispatch_at
ISR64 26, 0, fault_dispatch_at
ISR64 27, 0, fault_dispatch_at
ISR64 28, 0, fault_dispatch_at
ISR64 29, 1, fault_dispatch_at
ISR64 30, 1, fault_dispatch_at
ISR64 31, 0, fault_dispatch_at
/* The watchdog's two interrupt vectors (traps/watchdog.c: the local APIC
 * timer and its spurious vector), as in the 32-bit IDT: in IA-32e mode the
 * interrupt of a loaded body that never ends arrives here too. */
ISR64 32, 0, fault_dispatch_at
ISR64 33, 0, fault_dispatch_at
/* Sampling's (bare/sampler), as in the 32-bit IDT. */
ISR64 34, 0, fault_dispatch_at
ISR64 35, 0, fault_dispatch_at
ISR64 36, 0, fault_dispatch_at
ISR64 37, 0, fault_dispatch_at
ISR64 38, 0, fault_dispatch_at
ISR64 39, 0, fault_dispatch_at
ISR64 40, 0, fault_dispatch_at
ISR64 41, 0, fault_dispatch_at
ISR64 42, 0, fault_dispatch_at
ISR64 43, 0, fault_dispatch_at
ISR64 44, 0, fault_dispatch_at
ISR64 45, 0, fault_dispatch_at
ISR64 46, 0, fault_dispatch_at
ISR64 47, 0, fault_dispatch_at

ISR64_COMMON fault_dispatch_at
ISR64_COMMON long_double_fault
    .code32

    .section .rodata
    .balign 4
    .globl isr64_stubs
isr64_stubs:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
    .long isr64_\n
    .endr
