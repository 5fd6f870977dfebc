/* The probe run (measure.c): one copy of a body, outside any timing, to
 * catch a body that writes EBP, the loop counter of the generated function
 * (bench_asm.h), which no check after the loop can see (the loop only ends
 * when EBP reaches 0). Enters the body's last copy with EBP = CK_PROBE_EBP
 * and ck_entry pointing at ck_probe_exit, so that the copy's tail
 * (DEC EBP; JNZ top; JMP *ck_entry) comes here with EBP = CK_PROBE_EBP - 1
 * when the body left EBP alone. A body that drove EBP to 0 falls into the
 * generated epilogue instead, which also returns to our caller (it restores
 * ck_saved_esp and pops the same four registers): ck_probe_ebp then keeps
 * the 0 the caller stored. */
#include "harness/timing_page.h"

    .text
    .globl ck_probe, ck_probe_exit

/* void ck_probe(const void *copy): ck_regs, ck_stack_top set by the caller. */
ck_probe:
    movl 4(%esp), %ecx
    pushl %ebp
    pushl %ebx
    pushl %esi
    pushl %edi
    movl %esp, ck_saved_esp
    movl ck_stack_top, %esp
    pushl %ecx                  /* RET below enters the copy with ESP = ck_stack_top */
    movl ck_regs, %eax
    movl ck_regs+4, %ebx
    movl ck_regs+8, %ecx
    movl ck_regs+12, %edx
    movl ck_regs+16, %esi
    movl ck_regs+20, %edi
    movl $CK_PROBE_EBP, %ebp
    ret

ck_probe_exit:
    movl %ebp, ck_probe_ebp
    movl %esp, ck_end_esp
    movl ck_saved_esp, %esp
    popl %edi
    popl %esi
    popl %ebx
    popl %ebp
    ret
