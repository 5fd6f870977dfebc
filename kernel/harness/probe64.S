/* The probe run of a 64-bit body (measure.c; probe.S explains the probe).
 * As there, the caller calls the body's generated function itself (through
 * platform->call64) with ck_loops = CK_PROBE_EBP and ck_entry =
 * ck_probe64_hook: the prologue (bench_asm64.h) loads the registers and
 * runs the setup or init code, and the hook enters one copy at
 * ck_probe_copy with every register and flag the init left. The copy's
 * tail comes back through ck_entry to ck_probe64_exit with EBP =
 * CK_PROBE_EBP - 1 when the body left RBP alone; a body that drove EBP to 0
 * falls into the generated epilogue, which returns to our caller the same
 * way (it restores ck_saved_rsp and pops the same six registers).
 *
 * Long-mode code: assembled with .code64 into .text.long64, also inside the
 * 32-bit kernel (bench_asm64.h says why it addresses the page RIP-relative).
 * The immediate below is the 32-bit address of the exit (the kernel's code
 * lies below 4 GiB on both platforms), stored into the low half of
 * ck_entry, whose high half the caller left 0. */
#include "harness/timing_page.h"

    .section .text.long64, "ax"
    .code64
    .globl ck_probe64_hook, ck_probe64_exit

ck_probe64_hook:
    movl $ck_probe64_exit, ck_entry(%rip)
    jmp *ck_probe_copy(%rip)

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
