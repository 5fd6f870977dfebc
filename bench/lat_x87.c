/* lat/x87/: latency and throughput of x87 arithmetic, one line each.
 *
 *     LATF(name, values, "instruction with \\r as the stack register it carries");
 *
 * gives lat/x87/<name> (the instruction on ST(1), copy after copy: a
 * dependent chain) and lat/x87/<name>/tput (on ST(1)..ST(4) in turn: four
 * independent chains). ST(0) is the other operand and never changes.
 *
 * values is the setup, run once before the copies (FNINIT: 64-bit
 * precision, all exceptions masked):
 *   ADD0  ST(0) = 0.0, ST(1..4) = pi: x + 0 = x
 *   MUL1  ST(0) = 1.0, ST(1..4) = pi: x * 1 = x, x / 1 = x
 * so the values never drift into denormals, infinities or zeros (a zero
 * dividend takes a shortcut: FDIV80 0.0/x is 6 cycles on the P54C [IL]).
 * The bodies push and pop nothing: the stack is the same after every copy.
 * With a ST(i) destination, AT&T syntax swaps the reversed forms: the
 * AT&T `fsubr %st, %st(i)` and `fdivr %st, %st(i)` are Intel's
 * FSUB ST(i),ST and FDIV ST(i),ST (ST(i) = ST(i) - ST(0), ST(i) / ST(0)).
 *
 * Expected values: kernel/uarch/p5.c. */
#include "bench.h"

#define LATF_CHAINS 4

#define LATF_SETUP_ADD0 "fninit \n fldpi \n fldpi \n fldpi \n fldpi \n fldz"
#define LATF_SETUP_MUL1 "fninit \n fldpi \n fldpi \n fldpi \n fldpi \n fld1"

/* What the setup holds, for the descriptions. */
#define LATF_SAYS_ADD0 " (ST(0) = 0.0, the chains pi)"
#define LATF_SAYS_MUL1 " (ST(0) = 1.0, the chains pi)"
#define LATF_TPUT_REGS "%st(1),%st(2),%st(3),%st(4)"
#define LATF(name, values, insn, ...)                                                          \
    BENCH_DESC(ck_desc_latf_##name, "dependent chain of ", "%st(1)", insn, LATF_SAYS_##values);    \
    BENCH_DESC(ck_desc_latf_##name##_tput, "4 independent chains: ", LATF_TPUT_REGS, insn,        \
               LATF_SAYS_##values);                                                               \
    BENCH_SETUP("lat/x87/" #name, ck_desc_latf_##name,                                             \
                LATF_SETUP_##values, ".irp r,%st(1)\n" insn "\n.endr", .needs = { FEAT_FPU },     \
                __VA_ARGS__);                                                                      \
    BENCH_SETUP("lat/x87/" #name "/tput", ck_desc_latf_##name##_tput,                              \
                LATF_SETUP_##values, ".irp r," LATF_TPUT_REGS "\n" insn "\n.endr",                \
                .needs = { FEAT_FPU }, .insns = LATF_CHAINS,            \
                .per_body = LATF_CHAINS, __VA_ARGS__)

/*   name  values instruction */
LATF(fadd, ADD0, "fadd %st, \\r");
LATF(fsub, ADD0, "fsubr %st, \\r");
LATF(fmul, MUL1, "fmul %st, \\r");
LATF(fdiv, MUL1, "fdivr %st, \\r");
