/* The probe run (measure.c): one copy of a body, outside any timing, to
 * catch a body that writes EBP, the loop counter of the generated function
 * (bench_asm.h), which no check after the loop can see (the loop only ends
 * when EBP reaches 0).
 *
 * The probe enters the body exactly as a timed run does: the caller calls
 * the benchmark's generated function itself, with ck_loops = CK_PROBE_EBP
 * and ck_entry = ck_probe_hook. Its prologue loads the registers from
 * ck_regs and runs the body's setup or init code (BENCH_SETUP, a loaded
 * file's init), then jumps through ck_entry, here. So the copy starts with
 * the registers and flags the init left, as in every timed run
 * (docs/registers.md, the register contract). The hook changes neither: a
 * store of an immediate and an indirect jump. It points ck_entry at
 * ck_probe_exit and enters the copy at ck_probe_copy; the copy's tail
 * (DEC EBP; JNZ top; JMP *ck_entry) then comes to ck_probe_exit with
 * EBP = CK_PROBE_EBP - 1 when the body (and its init) left EBP alone. A
 * body that drove EBP to 0 falls into the generated epilogue instead, which
 * returns to our caller the same way (it restores ck_saved_esp and pops the
 * same four registers): ck_probe_ebp then keeps the 0 the caller stored. */
#include "harness/timing_page.h"

    .text
    .globl ck_probe_hook, ck_probe_exit

ck_probe_hook:
    movl $ck_probe_exit, ck_entry
    jmp *ck_probe_copy

ck_probe_exit:
    movl %ebp, ck_probe_ebp
    movl %esp, ck_end_esp
    movl ck_saved_esp, %esp
    popl %edi
    popl %esi
    popl %ebx
    popl %ebp
    ret
