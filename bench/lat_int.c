/* lat/: latency and throughput of integer instructions, one line each.
 *
 *     LAT(name, kind, "instruction with %e\\r as the register it carries");
 *
 * gives two benchmarks:
 *   lat/<name>       the instruction on EAX, copy after copy: a dependent
 *                    chain, so one body costs the instruction's latency.
 *   lat/<name>/tput  the same instruction on LAT_CHAINS registers in turn:
 *                    independent chains, so one body costs LAT_CHAINS issues
 *                    and per_instruction (.per_body) is the reciprocal
 *                    throughput (or latency / LAT_CHAINS when that is larger).
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
 * Expected values: kernel/uarch/ (P5 in p5.c, Golden Cove in golden_cove.c,
 * each with its sources). */
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

#define LAT(name, kind, insn, ...)                                                                 \
    BENCH_DESC(ck_desc_lat_##name, "dependent chain of ", "ax", insn, "");                         \
    BENCH_DESC(ck_desc_lat_##name##_tput, CK_STR(LAT_CHAINS) " independent chains: ",              \
               LAT_REGS_##kind, insn, "");                                                         \
    BENCH("lat/" #name, ck_desc_lat_##name,                                                        \
          ".irp r,ax\n" insn "\n.endr", .prepare = LAT_PREP_##kind, __VA_ARGS__);                   \
    BENCH("lat/" #name "/tput", ck_desc_lat_##name##_tput,                                         \
          ".irp r," LAT_REGS_##kind "\n" insn "\n.endr", .prepare = LAT_PREP_##kind,               \
          .insns = LAT_CHAINS,                                                                     \
          .per_body = LAT_CHAINS, __VA_ARGS__)

/* Both bodies written out; tput_copies: how many copies of one instruction
 * the independent body is (0: it mixes instructions). */
#define LAT_BODIES(name, desc, prep, chain, chain_insns, tput, tput_insns, tput_copies, ...)        \
    BENCH("lat/" #name, "dependent chain: " desc, chain, .prepare = prep, .insns = chain_insns,     \
          __VA_ARGS__);                                                                            \
    BENCH("lat/" #name "/tput", "independent: " desc, tput, .prepare = prep,                       \
          .insns = tput_insns, .per_body = tput_copies, __VA_ARGS__)

/* name  kind  instruction */
LAT(add,   ZERO, "addl %ebx, %e\\r");
LAT(sub,   ZERO, "subl %ebx, %e\\r");
LAT(xor,   ZERO, "xorl %ebx, %e\\r");
LAT(adc,   ZERO, "adcl %ebx, %e\\r");
LAT(lea,   ZERO, "leal (%e\\r,%ebx), %e\\r");
LAT(shl_cl, ZERO, "shll %cl, %e\\r");
LAT(shr_cl, ZERO, "shrl %cl, %e\\r");
LAT(sar_cl, ZERO, "sarl %cl, %e\\r");
LAT(rol_cl, ZERO, "roll %cl, %e\\r");
LAT(imul,  ONE,  "imull %ebx, %e\\r");
LAT(bswap, ANY,  "bswap %e\\r");
LAT(movzx, ANY,  "movzwl %\\r, %e\\r");
LAT(neg,   ANY,  "negl %e\\r");
/* CMOV (P6 on): a self-move, whatever the flags say, so the value stays. */
LAT(cmov,  ZERO, "cmovnel %e\\r, %e\\r", .needs = { FEAT_CMOV });

/* MUL r32: EDX:EAX = EAX * EBX with EBX = 1, so EAX stays and EDX becomes 0.
 * The chain runs through EAX; the independent form reloads EAX first (MOV
 * breaks the dependency; EDX is only written). */
LAT_BODIES(mul, "`mull %ebx` (EBX = 1)", lat_one,
           "mull %ebx", 1, "movl %ecx, %eax \n mull %ebx", 2, 0);

/* DIV r32 with ECX = 1 and EDX = 0: the quotient is EAX itself and the
 * remainder 0, so EDX:EAX is the same 32-bit dividend every time and each
 * DIV waits for the last. EAX = 0xffffffff, a full 32-bit quotient.
 * The independent form zeroes EDX (a dependency-breaking idiom) and
 * reloads EAX from EBX: three instructions, the DIV dominates. */
static const char *div_prep(struct bench_ctx *ctx)
{
    ctx->eax = 0xffffffffu;
    ctx->ebx = 0xffffffffu;
    ctx->ecx = 1;
    ctx->edx = 0;
    return NULL;
}

LAT_BODIES(div, "`divl %ecx` (EDX:EAX = 0:0xffffffff, ECX = 1)", div_prep,
           "divl %ecx", 1, "xorl %edx, %edx \n movl %ebx, %eax \n divl %ecx", 3, 0);

/* IDIV r32: EAX = 0x7fffffff, EDX = 0 (its sign extension), ECX = 1. */
static const char *idiv_prep(struct bench_ctx *ctx)
{
    ctx->eax = 0x7fffffffu;
    ctx->ebx = 0x7fffffffu;
    ctx->ecx = 1;
    ctx->edx = 0;
    return NULL;
}

LAT_BODIES(idiv, "`idivl %ecx` (EDX:EAX = 0:0x7fffffff, ECX = 1)", idiv_prep,
           "idivl %ecx", 1, "xorl %edx, %edx \n movl %ebx, %eax \n idivl %ecx", 3, 0);

/* XCHG r32,r32: both registers are read and written, so one exchange of
 * EAX and EBX waits for the previous one; two pairs are independent. */
LAT_BODIES(xchg, "`xchgl %eax, %ebx`", lat_any,
           "xchgl %eax, %ebx", 1, "xchgl %eax, %ebx \n xchgl %ecx, %edx", 2, 2);
