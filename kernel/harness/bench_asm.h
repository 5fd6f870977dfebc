/* The assembler macros every generated benchmark function uses (included
 * once per benchmark file through bench.h). They read and write the timing
 * page (timing_page.h): ck_regs, ck_loops, ck_entry, ck_t0, ck_t1 and
 * ck_read_mode, which the harness sets before each call, and ck_carry_esi,
 * where the epilogue leaves ESI (after the second read: not timed).
 *
 * The body runs on the harness's benchmark stack (measure.c): the prologue
 * saves the caller's ESP in ck_saved_esp and loads ck_stack_top before the
 * first read; the epilogue, after the second read, leaves the body's final
 * ESP in ck_end_esp and takes the caller's ESP back from the page, so a body
 * that unbalances or overwrites ESP cannot take the caller's saved registers
 * with it, and the harness sees it (ck_end_esp != ck_stack_top). Nothing is
 * added between the two reads.
 *
 * Read modes (ck_read_mode, CK_READ_* in timing_page.h), chosen per CPU by
 * timer.c. The code tests RDTSCP (below: CPUID, equal: RDTSCP) and LFENCE;
 * anything else is the PIT.
 * The branch on the mode comes before the first read and, at the end, is a
 * fixed predicted cost inside the region that the difference cancels. */
#ifndef CK_BENCH_ASM_H
#define CK_BENCH_ASM_H
#include "timing_page.h"

__asm__(
    ".ifndef ck_bench_macros_defined\n"
    ".set ck_bench_macros_defined, 1\n"

    ".macro ck_read_into dst, serialize_end\n"
    "  cmpl $" CK_STR(CK_READ_RDTSCP) ", ck_read_mode\n"
    "  jb .Lck_cpuid_\\@\n"
    "  je .Lck_rdtscp_\\@\n"
    "  cmpl $" CK_STR(CK_READ_LFENCE) ", ck_read_mode\n"
    "  je .Lck_lfence_\\@\n"
    /* mode 3: PIT channel 2, a 16-bit down counter */
    "  movb $0x80, %al\n"
    "  outb %al, $0x43\n"
    "  inb $0x42, %al\n"
    "  movb %al, %cl\n"
    "  inb $0x42, %al\n"
    "  movb %al, %ch\n"
    "  movzwl %cx, %eax\n"
    "  xorl %edx, %edx\n"
    "  jmp .Lck_store_\\@\n"
    ".Lck_cpuid_\\@:\n"
    "  xorl %eax, %eax\n"
    "  cpuid\n"
    "  rdtsc\n"
    "  jmp .Lck_store_\\@\n"
    ".Lck_rdtscp_\\@:\n"
    "  .if \\serialize_end\n"
    "  rdtscp\n"
    "  lfence\n"
    "  jmp .Lck_store_\\@\n"
    "  .endif\n"
    ".Lck_lfence_\\@:\n"
    "  lfence\n"
    "  rdtsc\n"
    "  lfence\n"
    ".Lck_store_\\@:\n"
    "  movl %eax, \\dst\n"
    "  movl %edx, \\dst+4\n"
    ".endm\n"

    ".macro ck_prologue\n"
    "  pushl %ebp\n"
    "  pushl %ebx\n"
    "  pushl %esi\n"
    "  pushl %edi\n"
    "  movl %esp, ck_saved_esp\n"
    "  movl ck_stack_top, %esp\n"
    "  ck_read_into ck_t0, 0\n"
    "  movl ck_loops, %ebp\n"
    "  movl ck_regs, %eax\n"
    "  movl ck_regs+4, %ebx\n"
    "  movl ck_regs+8, %ecx\n"
    "  movl ck_regs+12, %edx\n"
    "  movl ck_regs+16, %esi\n"
    "  movl ck_regs+20, %edi\n"
    ".endm\n"

    ".macro ck_epilogue\n"
    "  ck_read_into ck_t1, 1\n"
    "  movl %esi, ck_carry_esi\n"
    "  movl %esp, ck_end_esp\n"
    "  movl ck_saved_esp, %esp\n"
    "  popl %edi\n"
    "  popl %esi\n"
    "  popl %ebx\n"
    "  popl %ebp\n"
    "  ret\n"
    ".endm\n"
    ".endif\n");

#endif
