/* The guard's setjmp/longjmp (jump.S) for the x86_64 build (the 64-bit
 * hosted runner): the registers the SysV x86-64 ABI makes a callee keep
 * (RBX, RBP, R12-R15), the stack pointer after the return and the return
 * address; struct ck_jmp in guard.c holds them in this order. Empty in the
 * 32-bit builds, which use jump.S. */
#ifdef __x86_64__
    .text
    .globl ck_setjmp, ck_longjmp

/* int ck_setjmp(struct ck_jmp *j): RDI = j */
ck_setjmp:
    movq %rbx, 0(%rdi)
    movq %rbp, 8(%rdi)
    movq %r12, 16(%rdi)
    movq %r13, 24(%rdi)
    movq %r14, 32(%rdi)
    movq %r15, 40(%rdi)
    leaq 8(%rsp), %rcx          /* the stack pointer after our return */
    movq %rcx, 48(%rdi)
    movq (%rsp), %rcx           /* the return address */
    movq %rcx, 56(%rdi)
    xorl %eax, %eax
    ret

/* void ck_longjmp(struct ck_jmp *j, int value): RDI = j, ESI = value != 0 */
ck_longjmp:
    movl %esi, %eax
    pushq $2                    /* EFLAGS known: DF=0, AC=0 */
    popfq
    movq 0(%rdi), %rbx
    movq 8(%rdi), %rbp
    movq 16(%rdi), %r12
    movq 24(%rdi), %r13
    movq 32(%rdi), %r14
    movq 40(%rdi), %r15
    movq 48(%rdi), %rsp
    jmp *56(%rdi)
#endif
    .section .note.GNU-stack, "", @progbits
