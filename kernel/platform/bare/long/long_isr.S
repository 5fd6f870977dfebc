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
 * which reports and stops. */
#include "platform/bare/traps/gdt.h"

#define SEL_DATA_ 0x10
#define REGS 120            /* 15 saved registers below the vector */
#define F32 64              /* the 32-bit frame (52 bytes) padded to 64 */
#define AT(x) (F32 + (x))

.macro ISR64 n, err, target
isr64_\n:
    .if \err == 0
    pushq $0
    .endif
    pushq $\n
    jmp isr64_common_\target
.endm

/* The common path, once per C target. */
.macro ISR64_COMMON target
isr64_common_\target:
    pushq %rax
    pushq %rcx
    pushq %rdx
    pushq %rbx
    pushq %rbp
    pushq %rsi
    pushq %rdi
    pushq %r8
    pushq %r9
    pushq %r10
    pushq %r11
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $F32, %rsp
    /* struct isr_frame: edi esi ebp esp ebx edx ecx eax vector err eip cs eflags */
    movl AT(64)(%rsp), %eax;  movl %eax, 0(%rsp)    /* rdi */
    movl AT(72)(%rsp), %eax;  movl %eax, 4(%rsp)    /* rsi */
    movl AT(80)(%rsp), %eax;  movl %eax, 8(%rsp)    /* rbp */
    movl AT(160)(%rsp), %eax; movl %eax, 12(%rsp)   /* the interrupted RSP */
    movl AT(88)(%rsp), %eax;  movl %eax, 16(%rsp)   /* rbx */
    movl AT(96)(%rsp), %eax;  movl %eax, 20(%rsp)   /* rdx */
    movl AT(104)(%rsp), %eax; movl %eax, 24(%rsp)   /* rcx */
    movl AT(112)(%rsp), %eax; movl %eax, 28(%rsp)   /* rax */
    movl AT(120)(%rsp), %eax; movl %eax, 32(%rsp)   /* vector */
    movl AT(128)(%rsp), %eax; movl %eax, 36(%rsp)   /* error code */
    movl AT(136)(%rsp), %eax; movl %eax, 40(%rsp)   /* rip */
    movl AT(144)(%rsp), %eax; movl %eax, 44(%rsp)   /* cs */
    movl AT(152)(%rsp), %eax; movl %eax, 48(%rsp)   /* rflags */
    /* To compatibility mode: a far return to the 32-bit code segment. */
    pushq $SEL_CODE
    movl $1f, %eax              /* (a 32-bit ELF cannot relocate PUSH imm32 in 64-bit code) */
    pushq %rax
    lretq
    /* The compatibility-mode half lives in the 32-bit core's .text (checked
     * for the Pentium like all of it); .text.long holds 64-bit code only. */
    .pushsection .text
    .code32
1:  /* The flat selectors, as the 32-bit stubs load them (a body may have
     * loaded others); SS too, which compatibility mode uses with its limit. */
    movl $SEL_DATA_, %eax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %fs
    movw %ax, %gs
    movw %ax, %ss
    cld
    movl %esp, %eax
    pushl 12(%eax)
    pushl %eax
    call \target
    addl $8, %esp
    ljmp $SEL_CODE64, $2f
    .popsection
    .code64
2:  movl %esp, %esp             /* RSP's upper half: zero (the stack is below 4 GiB) */
    movl 40(%rsp), %eax
    movq %rax, AT(136)(%rsp)    /* the EIP to resume at */
    movq $SEL_DATA_, AT(168)(%rsp) /* SS flat, as the 32-bit path leaves it */
    addq $F32, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %r11
    popq %r10
    popq %r9
    popq %r8
    popq %rdi
    popq %rsi
    popq %rbp
    popq %rbx
    popq %rdx
    popq %rcx
    popq %rax
    addq $16, %rsp              /* vector and error code */
    iretq
.endm

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

ISR64_COMMON fault_dispatch_at
ISR64_COMMON long_double_fault
    .code32

    .section .rodata
    .balign 4
    .globl isr64_stubs
isr64_stubs:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33
    .long isr64_\n
    .endr
