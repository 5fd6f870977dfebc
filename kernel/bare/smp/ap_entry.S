/* An application processor's 32-bit entry and its exception stubs.
 *
 * ap_entry32: reached from the trampoline with the boot processor's GDT and
 * CS = 0x08 (SEL_CODE, traps/gdt.h); loads the flat data selector 0x10
 * (SEL_DATA) everywhere, takes the stack the boot processor set aside for
 * it (ap_boot_stack) and calls the C side through ap_entry_main, which
 * never returns. The C side (ap.c) fills ap_boot_stack, ap_entry_main and
 * ap_entry_fault: this file calls nothing by name, so the two files do not
 * depend on each other in a circle.
 *
 * ap_stubs: the APs' own 32-bit IDT (ap_tables.c) points at these (but
 * for vector 8, a task gate to each AP's own double-fault task). Each pushes a zero
 * where the CPU pushes no error code (SDM Vol. 3A §6.13, Table 6-1: 8,
 * 10-14, 17, 21, 29, 30 have one), then the vector, and calls
 * ap_entry_fault(frame) (ap_fault.c), which finds the processor from its stack, reports into
 * its mailbox and parks it: an AP's fault never reaches the boot
 * processor's guard. */
    .text
    .code32
    .globl ap_entry32
ap_entry32:
    movl $0x10, %eax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %fs
    movw %ax, %gs
    movw %ax, %ss
    movl ap_boot_stack, %esp
    xorl %ebp, %ebp
    pushl $0                /* no return address: ap_main never returns */
    jmp *ap_entry_main

.macro AP_STUB vector, has_error
ap_stub_\vector:
    .if \has_error == 0
    pushl $0
    .endif
    pushl $\vector
    jmp ap_fault_common
.endm

AP_STUB 0, 0
AP_STUB 1, 0
AP_STUB 2, 0
AP_STUB 3, 0
AP_STUB 4, 0
AP_STUB 5, 0
AP_STUB 6, 0
AP_STUB 7, 0
AP_STUB 8, 1
AP_STUB 9, 0
AP_STUB 10, 1
AP_STUB 11, 1
AP_STUB 12, 1
AP_STUB 13, 1
AP_STUB 14, 1
AP_STUB 15, 0
AP_STUB 16, 0
AP_STUB 17, 1
AP_STUB 18, 0
AP_STUB 19, 0
AP_STUB 20, 0
AP_STUB 21, 1
AP_STUB 22, 0
AP_STUB 23, 0
AP_STUB 24, 0
AP_STUB 25, 0
AP_STUB 26, 0
AP_STUB 27, 0
AP_STUB 28, 0
AP_STUB 29, 1
AP_STUB 30, 1
AP_STUB 31, 0

ap_fault_common:
    movl $0x10, %eax
    movw %ax, %ds
    movw %ax, %es
    pushl %esp              /* frame: vector, error, EIP, CS, EFLAGS */
    call *ap_entry_fault    /* does not return */
1:  cli
    hlt
    jmp 1b

    .data
    .globl ap_boot_stack, ap_entry_main, ap_entry_fault
    .balign 4
ap_boot_stack:  .long 0
ap_entry_main:  .long 0
ap_entry_fault: .long 0

    .section .rodata
    .globl ap_stubs
    .balign 4
ap_stubs:
    .irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    .long ap_stub_\v
    .endr
