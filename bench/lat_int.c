/* lat/: latency and throughput of integer instructions, one line each.
 *
 *     LAT(name, kind, "instruction with %e\\r as the register it carries",
 *         (latency expectations), (throughput expectations per instruction));
 *
 * gives two benchmarks:
 *   lat/<name>       the instruction on EAX, copy after copy: a dependent
 *                    chain, so one body costs the instruction's latency.
 *   lat/<name>/tput  the same instruction on LAT_CHAINS registers in turn:
 *                    independent chains, so one body costs LAT_CHAINS issues
 *                    and ticks_per_insn is the reciprocal throughput (or
 *                    latency / LAT_CHAINS when that is larger).
 * The template is expanded by the assembler's .irp, with \r standing for a
 * register stem: "%e\r" is the 32-bit register, "%\r" the 16-bit one.
 *
 * kind says which registers carry the chains and what the others hold:
 *   ZERO  carriers EAX EDX ESI EDI; EBX = 0, ECX = 0 (CL, a shift count of 0)
 *   ONE   carriers EAX EDX ESI EDI; EBX = 1, ECX = 0
 *   ANY   carriers EAX EDX EBX ECX (for instructions that change the value:
 *         ESI/EDI must keep pointing at the scratch data)
 * ZERO and ONE instructions leave the value unchanged (x + 0, x * 1, x << 0),
 * which keeps ESI/EDI valid and the chains' values fixed.
 *
 * Implicit-register instructions (MUL, DIV, IDIV) and XCHG are written out
 * with LAT_BODIES, which takes both bodies and their instruction counts.
 *
 * Expected values: P5 from InstLatX86 on a P54C (see docs/references.md,
 * [IL] = InstLatx64/InstLatx64
 * GenuineIntel/GenuineIntel0000526_P54C_InstLatX86.txt); GOLDEN_COVE (Golden
 * Cove) from docs/references.md ([IX1] InstLatX64 ADL BC, [U1]-[U3]
 * uops.info). Where no published value exists, none is stated.
 * Each P5 value is the steady state of the unrolled stream (checked by
 * tests/model against scripts/p5model.py): a chain issues one instruction at
 * a time (each reads the last: RAW); in a /tput body ADD, SUB, XOR and LEA
 * pair two by two (2 clocks for 4, [A10]); ADC is U-only, NEG not pairable
 * [A10], so 4 clocks for 4; a LEA chain adds an AGI clock to each LEA [A9]
 * ([IL] L 2.0), its /tput body does not (the next LEA on a register is two
 * clocks after its write); the not-pairable multi-clock instructions
 * (shifts by CL, IMUL, MUL, BSWAP, MOVZX, XCHG, DIV, IDIV) cost their [IL]
 * value each, back to back. */
#include "bench.h"

#define LAT_CHAINS 4

#define LAT_REGS_ZERO "ax,dx,si,di"
#define LAT_REGS_ONE "ax,dx,si,di"
#define LAT_REGS_ANY "ax,dx,bx,cx"

static const char *lat_zero(struct bench_ctx *ctx)
{
    ctx->ebx = 0;
    ctx->ecx = 0;
    return NULL;
}

static const char *lat_one(struct bench_ctx *ctx)
{
    ctx->ebx = 1;
    ctx->ecx = 0;
    return NULL;
}

static const char *lat_any(struct bench_ctx *ctx)
{
    (void)ctx;
    return NULL;
}

#define LAT_PREP_ZERO lat_zero
#define LAT_PREP_ONE lat_one
#define LAT_PREP_ANY lat_any

/* Throughput expectations are written per instruction; the body holds
 * LAT_CHAINS of them. With 4 chains a 1-cycle instruction cannot go below
 * 0.25 per instruction even where the core issues 5 a cycle (Golden Cove
 * ADD T 0.2 [IX1]), and the loop's own DEC/JNZ share the ALU ports, hence
 * the wider tolerance on the ADD line. */
#define LAT_TPUT_(u, v, t, ...) { (u), CK_X100((v) * LAT_CHAINS), CK_X100((t) * LAT_CHAINS) }
#define LAT_TPUT(u, ...) LAT_TPUT_(u, __VA_ARGS__, 0)
#define TP5(...) LAT_TPUT(UARCH_P5, __VA_ARGS__)
#define TP6(...) LAT_TPUT(UARCH_P6, __VA_ARGS__)
#define TGOLDEN_COVE(...) LAT_TPUT(UARCH_GOLDEN_COVE, __VA_ARGS__)
#define TZEN(...) LAT_TPUT(UARCH_ZEN, __VA_ARGS__)

#define LAT_UNPAREN_(...) __VA_ARGS__
#define LAT_UNPAREN(x) LAT_UNPAREN_ x

#define LAT(name, kind, insn, lat_expect, tput_expect, ...)                                        \
    BENCH("lat/" #name, "dependent chain of `" insn "` on EAX (\\r = ax)",                          \
          ".irp r,ax\n" insn "\n.endr", .prepare = LAT_PREP_##kind,                                \
          .expect = { LAT_UNPAREN(lat_expect) }, __VA_ARGS__);                                     \
    BENCH("lat/" #name "/tput",                                                                    \
          "`" insn "` on " CK_STR(LAT_CHAINS) " independent registers (" LAT_REGS_##kind ")",      \
          ".irp r," LAT_REGS_##kind "\n" insn "\n.endr", .prepare = LAT_PREP_##kind,               \
          .insns = LAT_CHAINS, .expect = { LAT_UNPAREN(tput_expect) }, __VA_ARGS__)

/* Both bodies written out; expectations per body. */
#define LAT_BODIES(name, desc, prep, chain, chain_insns, lat_expect, tput, tput_insns, tput_expect, \
                   ...)                                                                            \
    BENCH("lat/" #name, "dependent chain: " desc, chain, .prepare = prep, .insns = chain_insns,     \
          .expect = { LAT_UNPAREN(lat_expect) }, __VA_ARGS__);                                     \
    BENCH("lat/" #name "/tput", "independent: " desc, tput, .prepare = prep,                       \
          .insns = tput_insns, .expect = { LAT_UNPAREN(tput_expect) }, __VA_ARGS__)

/* name  kind  instruction                      latency                        throughput per instruction */
LAT(add,   ZERO, "addl %ebx, %e\\r",         (P5(1.00), GOLDEN_COVE(1.00, 0.05)), (TP5(0.50), TGOLDEN_COVE(0.25, 0.06)));
LAT(sub,   ZERO, "subl %ebx, %e\\r",         (P5(1.00)),                     (TP5(0.50)));
LAT(xor,   ZERO, "xorl %ebx, %e\\r",         (P5(1.00)),                     (TP5(0.50)));
LAT(adc,   ZERO, "adcl %ebx, %e\\r",         (P5(1.00)),                     (TP5(1.00)));
LAT(lea,   ZERO, "leal (%e\\r,%ebx), %e\\r", (P5(2.00)),                     (TP5(0.50)));
LAT(shl_cl, ZERO, "shll %cl, %e\\r",         (P5(4.00)),                     (TP5(4.00)));
LAT(shr_cl, ZERO, "shrl %cl, %e\\r",         (P5(4.00)),                     (TP5(4.00)));
LAT(sar_cl, ZERO, "sarl %cl, %e\\r",         (P5(4.00)),                     (TP5(4.00)));
LAT(rol_cl, ZERO, "roll %cl, %e\\r",         (P5(4.00)),                     (TP5(4.00)));
LAT(imul,  ONE,  "imull %ebx, %e\\r",        (P5(9.00), GOLDEN_COVE(3.00)),       (TP5(9.00), TGOLDEN_COVE(1.00)));
LAT(bswap, ANY,  "bswap %e\\r",              (P5(2.00)),                     (TP5(2.00)));
LAT(movzx, ANY,  "movzwl %\\r, %e\\r",       (P5(3.00)),                     (TP5(3.00)));
LAT(neg,   ANY,  "negl %e\\r",               (P5(1.00)),                     (TP5(1.00)));
/* CMOV (P6 on): a self-move, whatever the flags say, so the value stays. */
LAT(cmov,  ZERO, "cmovnel %e\\r, %e\\r",     (),                             (), .needs = { FEAT_CMOV });

/* MUL r32: EDX:EAX = EAX * EBX with EBX = 1, so EAX stays and EDX becomes 0.
 * The chain runs through EAX; the independent form reloads EAX first (MOV
 * breaks the dependency; EDX is only written). P5: 9 [IL]; Golden Cove MUL
 * r32 lat 3-4 [U3]: the chain through EAX sees the 4. uops.info's T 1.00
 * is for MUL alone; with the MOV this body is no published measurement,
 * so it states no modern throughput. */
LAT_BODIES(mul, "`mull %ebx` (EBX = 1)", lat_one,
           "mull %ebx", 1, (P5(9.00), GOLDEN_COVE(4.00)),
           "movl %ecx, %eax \n mull %ebx", 2, ());

/* DIV r32 with ECX = 1 and EDX = 0: the quotient is EAX itself and the
 * remainder 0, so EDX:EAX is the same 32-bit dividend every time and each
 * DIV waits for the last. EAX = 0xffffffff, a full 32-bit quotient.
 * The independent form zeroes EDX (a dependency-breaking idiom) and
 * reloads EAX from EBX: three instructions, the DIV dominates.
 * P5: DIV r32 41 (full) / 42 ("1/1 eax upd") [IL]. Golden Cove DIV r32:
 * L 14.93, T 5.975 with a full-width dividend [IX1]; uops.info gives lat
 * 10-15 over its operand values, T 6.00 [U2]. A 32-bit quotient is the
 * slow end, so the expectation is [IX1]'s. */
static const char *div_prep(struct bench_ctx *ctx)
{
    ctx->eax = 0xffffffffu;
    ctx->ebx = 0xffffffffu;
    ctx->ecx = 1;
    ctx->edx = 0;
    return NULL;
}

LAT_BODIES(div, "`divl %ecx` (EDX:EAX = 0:0xffffffff, ECX = 1)", div_prep,
           "divl %ecx", 1, (P5(41.50, 1.00), GOLDEN_COVE(14.93)),
           "xorl %edx, %edx \n movl %ebx, %eax \n divl %ecx", 3, (GOLDEN_COVE(6.00, 0.60)));

/* IDIV r32: EAX = 0x7fffffff, EDX = 0 (its sign extension), ECX = 1.
 * P5: IDIV r32 46-47 [IL]. */
static const char *idiv_prep(struct bench_ctx *ctx)
{
    ctx->eax = 0x7fffffffu;
    ctx->ebx = 0x7fffffffu;
    ctx->ecx = 1;
    ctx->edx = 0;
    return NULL;
}

LAT_BODIES(idiv, "`idivl %ecx` (EDX:EAX = 0:0x7fffffff, ECX = 1)", idiv_prep,
           "idivl %ecx", 1, (P5(46.50, 1.00)),
           "xorl %edx, %edx \n movl %ebx, %eax \n idivl %ecx", 3, ());

/* XCHG r32,r32: both registers are read and written, so one exchange of
 * EAX and EBX waits for the previous one; two pairs are independent.
 * P5: XCHG r32,r32 L 3, T 3 [IL]. */
LAT_BODIES(xchg, "`xchgl %eax, %ebx`", lat_any,
           "xchgl %eax, %ebx", 1, (P5(3.00)),
           "xchgl %eax, %ebx \n xchgl %ecx, %edx", 2, (P5(6.00)));
