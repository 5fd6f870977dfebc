/* The probe run of a 64-bit body (measure.c; the 32-bit one is probe.S):
 * one copy outside any timing, entered with EBP = CK_PROBE_EBP and ck_entry
 * pointing at ck_probe64_exit, so that the copy's tail (DEC EBP; JNZ top;
 * JMP *ck_entry) comes back here with EBP = CK_PROBE_EBP - 1 when the body
 * left RBP alone. A body that drove EBP to 0 falls into the generated
 * epilogue (bench_asm64.h), which returns to our caller the same way (it
 * restores ck_saved_rsp and pops the same six registers).
 *
 * Long-mode code: assembled with .code64 into .text.long64, also inside the
 * 32-bit kernel (bench_asm64.h says why it addresses the page RIP-relative).
 * Called the SysV way through platform->call64: RDI = the copy. */
#include "harness/timing_page.h"

    .section .text.long64, "ax"
    .code64
    .globl ck_probe64, ck_probe64_exit

ck_probe64:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, ck_saved_rsp(%rip)
    movl ck_stack_top(%rip), %esp
    pushq %rdi                  /* RET below enters the copy with RSP = ck_stack_top */
    movl ck_rsi_hi(%rip), %esi  /* RSI in full, as bench_asm64.h loads it */
    shlq $32, %rsi
    movl ck_regs+16(%rip), %eax
    orq %rax, %rsi
    movl ck_regs(%rip), %eax
    movl ck_regs+4(%rip), %ebx
    movl ck_regs+8(%rip), %ecx
    movl ck_regs+12(%rip), %edx
    movl ck_regs+20(%rip), %edi
    xorl %r8d, %r8d
    xorl %r9d, %r9d
    xorl %r10d, %r10d
    xorl %r11d, %r11d
    xorl %r12d, %r12d
    xorl %r13d, %r13d
    xorl %r14d, %r14d
    xorl %r15d, %r15d
    movl $CK_PROBE_EBP, %ebp
    ret

ck_probe64_exit:
    movl %ebp, ck_probe_ebp(%rip)
    movl %esp, ck_end_esp(%rip)
    movq ck_saved_rsp(%rip), %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    xorl %eax, %eax
    ret

#ifdef __x86_64__
    .code64
#else
    .code32
#endif
