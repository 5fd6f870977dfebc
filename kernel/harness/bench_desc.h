/* Descriptions the assembler writes. A body given as a template over
 * registers (bench/lat_int.c: ".irp r,ax" around "addl %ebx, %e\r") is
 * described by the same template, expanded by the same .irp, so a reader
 * sees `addl %ebx, %eax` and never the template's `\r` (GNU as substitutes
 * an .irp parameter inside quoted strings too).
 *
 *     BENCH_DESC(sym, "dependent chain of ", "ax", "addl %ebx, %e\\r", "");
 *
 * defines the string sym = head `insn(r1); insn(r2); ...` tail, in .rodata,
 * for the record's .desc. */
#ifndef CK_BENCH_DESC_H
#define CK_BENCH_DESC_H

#define BENCH_DESC(sym, head, regs, insn, tail)                                                    \
    __asm__(".pushsection .rodata\n"                                                               \
            #sym ":\n"                                                                             \
            "  .ascii \"" head "`\"\n"                                                             \
            "  .set " #sym "_sep, 0\n"                                                             \
            "  .irp r," regs "\n"                                                                  \
            "  .if " #sym "_sep\n"                                                                 \
            "  .ascii \"; \"\n"                                                                    \
            "  .endif\n"                                                                           \
            "  .set " #sym "_sep, 1\n"                                                             \
            "  .ascii \"" insn "\"\n"                                                              \
            "  .endr\n"                                                                            \
            "  .asciz \"`" tail "\"\n"                                                             \
            ".popsection\n");                                                                      \
    extern const char sym[]

#endif
