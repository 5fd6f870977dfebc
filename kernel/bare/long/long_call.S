/* struct platform's call64 on bare metal: from the 32-bit core (compatibility
 * mode) into a 64-bit function and back.
 *
 * uintptr_t long_call64(uintptr_t fn, uintptr_t arg)    -- RAX's low half
 * uint64_t  long_call64_u64(uintptr_t fn, uintptr_t arg) -- all of RAX (EDX:EAX)
 *
 * The contract (docs/architecture.md, "Long mode"): fn is called in 64-bit
 * mode with RDI = arg (zero-extended), a 16-byte aligned RSP below 4 GiB
 * (the caller's stack), DF clear; it returns with RET in RAX. It may
 * change every general register, r8-r15, RBX, RBP and R12-R15 included
 * (this thunk saves what the 32-bit side needs itself: EBX, ESI, EDI, EBP
 * and the stack pointer, in memory), and the data segment registers (put
 * back to the flat selector on return). It must return with the RSP it was
 * given (plus the return address popped). The far jump and far return go
 * through the GDT's L=1 code segment (SDM Vol. 3A §5.2.1, §9.8.5.3: "code
 * segments with L=1 run in 64-bit mode"). */
#include "bare/traps/gdt.h"

    .text
    .globl long_call64, long_call64_u64
long_call64:
long_call64_u64:
    pushl %ebp
    pushl %ebx
    pushl %esi
    pushl %edi
    movl 20(%esp), %eax
    movl 24(%esp), %edx
    ljmp $SEL_CODE64, $long_call64_enter
long_call64_back:
    movl $SEL_DATA, %ecx        /* SS first: compatibility mode checks it */
    movw %cx, %ss
    movw %cx, %ds
    movw %cx, %es
    movw %cx, %fs
    movw %cx, %gs
    popl %edi
    popl %esi
    popl %ebx
    popl %ebp
    ret

    .section .text.long, "ax"
    .code64
long_call64_enter:
    movl %esp, %esp             /* zero-extended: RSP's upper half is not defined after compatibility mode */
    movl %eax, %eax
    movl %edx, %edi             /* the argument, zero-extended */
    movq %rsp, %rbx
    andq $-16, %rsp
    pushq %rbx                  /* the stack pointer to go back to, in memory */
    pushq %rbx
    call *%rax
    movq (%rsp), %rsp
    movq %rax, %rdx
    shrq $32, %rdx              /* EDX:EAX = RAX */
    pushq $SEL_CODE
    movl $long_call64_back, %ecx /* (a 32-bit ELF cannot relocate PUSH imm32 in 64-bit code) */
    pushq %rcx
    lretq
    .code32
