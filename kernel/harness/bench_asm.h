/* The assembler macros every generated benchmark function uses (included
 * once per benchmark file through bench.h). They read and write the timing
 * page (timing_page.h): ck_regs, ck_loops, ck_entry, ck_t0, ck_t1 and
 * ck_read_mode, which the harness sets before each call, and ck_carry_esi,
 * where the epilogue leaves ESI (after the second read: not timed).
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
    "  popl %edi\n"
    "  popl %esi\n"
    "  popl %ebx\n"
    "  popl %ebp\n"
    "  ret\n"
    ".endm\n"
    ".endif\n");

#endif
