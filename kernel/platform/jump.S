/* A minimal setjmp/longjmp for the guard: the exception handler jumps back
 * into guard_run() on the same stack, abandoning the faulted code. */
    .text
    .globl ck_setjmp, ck_longjmp

/* int ck_setjmp(struct ck_jmp *j) */
ck_setjmp:
    movl 4(%esp), %eax
    movl %ebx, 0(%eax)
    movl %esi, 4(%eax)
    movl %edi, 8(%eax)
    movl %ebp, 12(%eax)
    leal 4(%esp), %ecx          /* the stack pointer after our return */
    movl %ecx, 16(%eax)
    movl (%esp), %ecx           /* the return address */
    movl %ecx, 20(%eax)
    xorl %eax, %eax
    ret

/* void ck_longjmp(struct ck_jmp *j, int value), value != 0 */
ck_longjmp:
    movl 4(%esp), %edx
    movl 8(%esp), %eax
    pushl $2                    /* EFLAGS known: IF=0, DF=0, AC=0 */
    popfl
    movl 0(%edx), %ebx
    movl 4(%edx), %esi
    movl 8(%edx), %edi
    movl 12(%edx), %ebp
    movl 16(%edx), %esp
    jmp *20(%edx)
