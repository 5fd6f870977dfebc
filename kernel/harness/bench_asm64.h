/* The 64-bit counterpart of bench_asm.h: the assembler macros every BENCH64
 * function uses (bench.h generates the function itself: CK_BENCH64_CODE_).
 * The same timing page (timing_page.h), the same read modes, the same
 * timed region: serialized read, register loads, U or 2U copies of the body
 * inside L iterations of the loop (RBP counts them down: `decl %ebp; jnz`),
 * serialized read. The only differences are the ones long mode makes:
 *
 *  - The code is assembled with `.code64` into the section .text.long64, also
 *    inside the 32-bit kernel ELF (its own output section in linker.ld, so
 *    scripts/check-isa, which checks the i586 core's .text, never sees it).
 *  - The timing page is addressed RIP-relative (`ck_t0(%rip)`): an absolute
 *    address in 64-bit code needs an R_X86_64_32S relocation, which a 32-bit
 *    ELF cannot hold; RIP-relative assembles to R_386_PC32 there and to
 *    R_X86_64_PC32 in the x86_64 hosted runner (AMD APM Vol. 3 §1.7,
 *    "RIP-relative addressing"; Intel SDM Vol. 2A §2.2.1.6).
 *  - The function is called the SysV x86-64 way (platform->call64 on bare
 *    metal, a direct call in the 64-bit hosted runner): RBX, RBP, R12-R15 are
 *    saved on the caller's stack, the caller's RSP (64 bits: the hosted
 *    runner's stack lies above 4 GiB) in ck_saved_rsp.
 *  - At entry the body sees RAX, RBX, RCX, RDX, RDI loaded from ck_regs
 *    (32-bit values, zero-extended: MOV r32 clears bits 63:32, SDM Vol. 1
 *    §3.4.1.1), RSI = ck_rsi_hi:ck_regs[4] (64 bits: a pointer chain in
 *    memory above 4 GiB, bench/mem64_chase.c; the epilogue hands its high
 *    half back in ck_carry_rsi_hi) and R8-R15 = 0; then the setup or init code runs and the
 *    copies start with what it left (docs/registers.md). The benchmark stack, the scratch data and the
 *    timing page lie below 4 GiB on both platforms (static, non-PIE), so
 *    ck_stack_top, ck_end_esp and ck_carry_esi keep their 32-bit fields.
 *
 * The epilogue returns 0 in RAX. */
#ifndef CK_BENCH_ASM64_H
#define CK_BENCH_ASM64_H
#include "harness/timing_page.h"

/* How the macros address the timing page. RIP-relative by default; a file
 * that copies the assembled code elsewhere at run time (kernel/load's
 * template for loaded 64-bit bodies) defines CK64_ABSOLUTE before including
 * this header and gets absolute 32-bit addresses instead: the address-size
 * prefix 67h makes the displacement a zero-extended 32-bit address (SDM Vol.
 * 2A §2.2.1.3; AMD APM Vol. 3 §1.2.3), which a 32-bit ELF relocates with
 * R_386_32 and an x86_64 one with R_X86_64_32. The macros are per assembly
 * unit, so the two forms never meet. */
#ifdef CK64_ABSOLUTE
#define CK64_A32 "addr32 "
#define CK64_RIP ""
#else
#define CK64_A32 ""
#define CK64_RIP "(%rip)"
#endif

/* What the assembler goes back to after a 64-bit block. */
#ifdef __x86_64__
#define CK_CODE_DEFAULT ".code64"
#else
#define CK_CODE_DEFAULT ".code32"
#endif

__asm__(
    ".ifndef ck_bench64_macros_defined\n"
    ".set ck_bench64_macros_defined, 1\n"

    ".macro ck64_read_into dst, serialize_end\n"
    "  " CK64_A32 "cmpl $" CK_STR(CK_READ_RDTSCP) ", ck_read_mode" CK64_RIP "\n"
    "  jb .Lck64_cpuid_\\@\n"
    "  je .Lck64_rdtscp_\\@\n"
    "  " CK64_A32 "cmpl $" CK_STR(CK_READ_LFENCE) ", ck_read_mode" CK64_RIP "\n"
    "  je .Lck64_lfence_\\@\n"
    /* mode 3: PIT channel 2 (ring 0 only; the hosted runner never picks it) */
    "  movb $0x80, %al\n"
    "  outb %al, $0x43\n"
    "  inb $0x42, %al\n"
    "  movb %al, %cl\n"
    "  inb $0x42, %al\n"
    "  movb %al, %ch\n"
    "  movzwl %cx, %eax\n"
    "  xorl %edx, %edx\n"
    "  jmp .Lck64_store_\\@\n"
    ".Lck64_cpuid_\\@:\n"
    "  xorl %eax, %eax\n"
    "  cpuid\n"
    "  rdtsc\n"
    "  jmp .Lck64_store_\\@\n"
    ".Lck64_rdtscp_\\@:\n"
    "  .if \\serialize_end\n"
    "  rdtscp\n"
    "  lfence\n"
    "  jmp .Lck64_store_\\@\n"
    "  .endif\n"
    ".Lck64_lfence_\\@:\n"
    "  lfence\n"
    "  rdtsc\n"
    "  lfence\n"
    ".Lck64_store_\\@:\n"
    "  " CK64_A32 "movl %eax, \\dst" CK64_RIP "\n"
    "  " CK64_A32 "movl %edx, \\dst+4" CK64_RIP "\n"
    ".endm\n"

    ".macro ck64_prologue\n"
    "  pushq %rbp\n"
    "  pushq %rbx\n"
    "  pushq %r12\n"
    "  pushq %r13\n"
    "  pushq %r14\n"
    "  pushq %r15\n"
    "  " CK64_A32 "movq %rsp, ck_saved_rsp" CK64_RIP "\n"
    "  " CK64_A32 "movl ck_stack_top" CK64_RIP ", %esp\n"
    "  ck64_read_into ck_t0, 0\n"
    "  " CK64_A32 "movl ck_loops" CK64_RIP ", %ebp\n"
    /* RSI in full: ck_rsi_hi:ck_regs[4] (a pointer chain may lie above
     * 4 GiB: the hosted64 runner's mmap'd memory, all of RAM in long mode). */
    "  " CK64_A32 "movl ck_rsi_hi" CK64_RIP ", %esi\n"
    "  shlq $32, %rsi\n"
    "  " CK64_A32 "movl ck_regs+16" CK64_RIP ", %eax\n"
    "  orq %rax, %rsi\n"
    "  " CK64_A32 "movl ck_regs" CK64_RIP ", %eax\n"
    "  " CK64_A32 "movl ck_regs+4" CK64_RIP ", %ebx\n"
    "  " CK64_A32 "movl ck_regs+8" CK64_RIP ", %ecx\n"
    "  " CK64_A32 "movl ck_regs+12" CK64_RIP ", %edx\n"
    "  " CK64_A32 "movl ck_regs+20" CK64_RIP ", %edi\n"
    "  xorl %r8d, %r8d\n"
    "  xorl %r9d, %r9d\n"
    "  xorl %r10d, %r10d\n"
    "  xorl %r11d, %r11d\n"
    "  xorl %r12d, %r12d\n"
    "  xorl %r13d, %r13d\n"
    "  xorl %r14d, %r14d\n"
    "  xorl %r15d, %r15d\n"
    ".endm\n"

    /* The way back (probe64.S takes it too, by hand: the same six pops). */
    ".macro ck64_return\n"
    "  " CK64_A32 "movq ck_saved_rsp" CK64_RIP ", %rsp\n"
    "  popq %r15\n"
    "  popq %r14\n"
    "  popq %r13\n"
    "  popq %r12\n"
    "  popq %rbx\n"
    "  popq %rbp\n"
    "  xorl %eax, %eax\n"
    "  ret\n"
    ".endm\n"

    ".macro ck64_epilogue\n"
    "  ck64_read_into ck_t1, 1\n"
    "  " CK64_A32 "movl %esi, ck_carry_esi" CK64_RIP "\n"
    "  shrq $32, %rsi\n"
    "  " CK64_A32 "movl %esi, ck_carry_rsi_hi" CK64_RIP "\n"
    "  " CK64_A32 "movl %esp, ck_end_esp" CK64_RIP "\n"
    "  ck64_return\n"
    ".endm\n"
    ".endif\n");

#endif
