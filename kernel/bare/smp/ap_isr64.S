/* The application processors' 64-bit exception stubs (long mode only): the
 * same stubs as the boot processor's (long/isr64_macros.inc), with the C
 * target ap_fault_at (ap_fault.c), which reports into the AP's mailbox and
 * parks it, instead of the boot processor's fault_dispatch_at and guard.
 * Vector 8 arrives on IST1, the AP's own double-fault stack (ap_tables.c);
 * the target never returns, so the common path's IRETQ half is not used. */
#include "bare/long/isr64_macros.inc"

    .section .text.long, "ax"
    .code64
ISR64 0, 0, ap_fault_at, ap_isr64
ISR64 1, 0, ap_fault_at, ap_isr64
ISR64 2, 0, ap_fault_at, ap_isr64
ISR64 3, 0, ap_fault_at, ap_isr64
ISR64 4, 0, ap_fault_at, ap_isr64
ISR64 5, 0, ap_fault_at, ap_isr64
ISR64 6, 0, ap_fault_at, ap_isr64
ISR64 7, 0, ap_fault_at, ap_isr64
ISR64 8, 1, ap_fault_at, ap_isr64
ISR64 9, 0, ap_fault_at, ap_isr64
ISR64 10, 1, ap_fault_at, ap_isr64
ISR64 11, 1, ap_fault_at, ap_isr64
ISR64 12, 1, ap_fault_at, ap_isr64
ISR64 13, 1, ap_fault_at, ap_isr64
ISR64 14, 1, ap_fault_at, ap_isr64
ISR64 15, 0, ap_fault_at, ap_isr64
ISR64 16, 0, ap_fault_at, ap_isr64
ISR64 17, 1, ap_fault_at, ap_isr64
ISR64 18, 0, ap_fault_at, ap_isr64
ISR64 19, 0, ap_fault_at, ap_isr64
ISR64 20, 0, ap_fault_at, ap_isr64
ISR64 21, 1, ap_fault_at, ap_isr64
ISR64 22, 0, ap_fault_at, ap_isr64
ISR64 23, 0, ap_fault_at, ap_isr64
ISR64 24, 0, ap_fault_at, ap_isr64
ISR64 25, 0, ap_fault_at, ap_isr64
ISR64 26, 0, ap_fault_at, ap_isr64
ISR64 27, 0, ap_fault_at, ap_isr64
ISR64 28, 0, ap_fault_at, ap_isr64
ISR64 29, 1, ap_fault_at, ap_isr64
ISR64 30, 1, ap_fault_at, ap_isr64
ISR64 31, 0, ap_fault_at, ap_isr64

ISR64_COMMON ap_fault_at
    .code32

    .section .rodata
    .balign 4
    .globl ap_stubs64
ap_stubs64:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    .long ap_isr64_\n
    .endr
