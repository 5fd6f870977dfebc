/* lat64/: latency and throughput of 64-bit integer instructions (long mode:
 * BENCH64, run through platform->call64; the 64-bit hosted runner runs them
 * natively). One line each, as in bench/lat_int.c:
 *
 *     LAT64(name, kind, "instruction on %\\r", needs...);
 *
 * gives
 *   lat64/<name>       the instruction on RAX, copy after copy: a dependent
 *                      chain, one body costs its latency.
 *   lat64/<name>/tput  the same on RAX, R8, R9, R10 in turn: four
 *                      independent chains, per_instruction (.per_body) is the
 *                      reciprocal throughput (or latency / 4 when larger).
 * `\r` is the full register name (rax, r8, ...), expanded by .irp.
 *
 * kind (what RBX holds; R8-R15 are 0 at entry, RAX = 1):
 *   ZERO  RBX = 0 (x + 0, x << 0: the value stays)
 *   ONE   RBX = 1 (x * 1)
 *   ANY   RBX = 1, for instructions that change the value (no register
 *         in the chains is a pointer, so any value will do)
 *
 * Expected values: kernel/uarch/ (golden_cove.c, zen.c, zen4.c). */
#include "bench.h"

#define LAT64_TPUT_REGS "rax,r8,r9,r10"

static const char *lat64_zero(struct bench_ctx *ctx)
{
    ctx->ebx = 0;
    return NULL;
}

static const char *lat64_one(struct bench_ctx *ctx)
{
    ctx->ebx = 1;
    return NULL;
}

#define LAT64_PREP_ZERO lat64_zero
#define LAT64_PREP_ONE lat64_one
#define LAT64_PREP_ANY lat64_one

#define LAT64(name, kind, insn, ...)                                                               \
    BENCH_DESC(ck_desc_lat64_##name, "dependent chain of ", "rax", insn, "");                      \
    BENCH_DESC(ck_desc_lat64_##name##_tput, "4 independent chains: ", LAT64_TPUT_REGS, insn, "");  \
    BENCH64("lat64/" #name, ck_desc_lat64_##name,                                                  \
            ".irp r,rax\n" insn "\n.endr", .prepare = LAT64_PREP_##kind, .insns = 1, __VA_ARGS__); \
    BENCH64("lat64/" #name "/tput", ck_desc_lat64_##name##_tput,                                   \
            ".irp r," LAT64_TPUT_REGS "\n" insn "\n.endr", .prepare = LAT64_PREP_##kind,           \
            .insns = 4,                                                                    \
            .per_body = 4, __VA_ARGS__)

/* name     kind  instruction */
LAT64(add,    ZERO, "addq %rbx, %\\r");
LAT64(imul,   ONE,  "imulq %rbx, %\\r");
LAT64(bswap,  ANY,  "bswapq %\\r");
LAT64(popcnt, ANY,  "popcntq %\\r, %\\r", .needs = { FEAT_POPCNT });
/* LZCNT: CPUID 0x80000001.ECX bit 5 (AMD: ABM, Intel: LZCNT), AMD APM Vol. 3 LZCNT. */
LAT64(lzcnt,  ANY,  "lzcntq %\\r, %\\r", .needs = { FEAT_ABM });
LAT64(tzcnt,  ANY,  "tzcntq %\\r, %\\r", .needs = { FEAT_BMI1 });
/* SHLX/SARX: the count in RBX = 0; the flags are not written (SDM Vol. 2B SARX/SHLX). */
LAT64(shlx,   ZERO, "shlxq %rbx, %\\r, %\\r", .needs = { FEAT_BMI2 });
LAT64(sarx,   ZERO, "sarxq %rbx, %\\r, %\\r", .needs = { FEAT_BMI2 });
/* PDEP/PEXT with the mask RBX = 0xffffffff: the low 32 bits deposited or
 * extracted in place, so the value settles after the first. (Zen 1 and 2
 * run them in microcode, with a time that depends on the mask.) */
static const char *lat64_mask(struct bench_ctx *ctx)
{
    ctx->ebx = 0xffffffffu;
    return NULL;
}
#define LAT64_PREP_MASK lat64_mask
LAT64(pdep,   MASK, "pdepq %rbx, %\\r, %\\r", .needs = { FEAT_BMI2 });
LAT64(pext,   MASK, "pextq %rbx, %\\r, %\\r", .needs = { FEAT_BMI2 });

/* ADCX and ADOX carry through CF and OF alone (SDM Vol. 2A ADCX, ADOX):
 * each is one chain through its flag whatever register it writes, so the
 * throughput body interleaves the two (two chains, 2 instructions). */
BENCH64("lat64/adcx", "dependent chain of `adcxq %rbx, %rax` (RBX = 0), through RAX and CF",
        "adcxq %rbx, %rax", .prepare = lat64_zero, .insns = 1, .needs = { FEAT_ADX });
BENCH64("lat64/adox", "dependent chain of `adoxq %rbx, %rax` (RBX = 0), through RAX and OF",
        "adoxq %rbx, %rax", .prepare = lat64_zero, .insns = 1, .needs = { FEAT_ADX });
BENCH64("lat64/adcx_adox", "ADCX into RAX and ADOX into R8: two chains (CF, OF) side by side",
        "adcxq %rbx, %rax \n adoxq %rbx, %r8", .prepare = lat64_zero, .insns = 2,
        .needs = { FEAT_ADX });

/* MULX (BMI2): RDX * r/m64, low half to the middle operand, high half to
 * the last (AT&T order); flags untouched. The chain runs through RDX (the
 * low half of RDX * 1); the throughput body reads RDX and writes R8-R11. */
BENCH64("lat64/mulx", "dependent chain of `mulxq %rbx, %rdx, %r8` (RBX = 1): RDX = low(RDX * 1)",
        "mulxq %rbx, %rdx, %r8", .prepare = lat64_one, .insns = 1, .needs = { FEAT_BMI2 });
BENCH64("lat64/mulx/tput", "`mulxq %rbx, %r9, %r8` four times: RDX only read, independent",
        "mulxq %rbx, %r9, %r8 \n mulxq %rbx, %r11, %r10 \n mulxq %rbx, %r13, %r12 \n"
        "mulxq %rbx, %r15, %r14",
        .prepare = lat64_one, .insns = 4, .per_body = 4, .needs = { FEAT_BMI2 });

/* MUL r64: RDX:RAX = RAX * RBX with RBX = 1; the chain runs through RAX. The
 * independent form reloads RAX from RCX first (MOV breaks the chain). */
BENCH64("lat64/mul", "dependent chain of `mulq %rbx` (RBX = 1): RAX stays, RDX = 0",
        "mulq %rbx", .prepare = lat64_one, .insns = 1);
BENCH64("lat64/mul/tput", "`movq %rcx, %rax; mulq %rbx`: each MUL independent",
        "movq %rcx, %rax \n mulq %rbx", .prepare = lat64_one, .insns = 2);

/* DIV and IDIV by RCX = 1 with RDX = 0: the quotient is RAX itself and the
 * remainder 0, so every division gets the same dividend and waits for the
 * last. The dividend is set once by the setup (outside the loop): a full
 * 64-bit quotient (DIV: 2^64 - 1; IDIV: 2^63 - 1), the slow end of the
 * data-dependent latency. lat64/div32 is DIV r32 (0:0xffffffff / 1) in the
 * same long-mode frame: the ratio lat64/div : lat64/div32 compares the
 * widths on one run. The independent forms zero RDX and reload RAX from RBX. */
static const char *div64_prep(struct bench_ctx *ctx)
{
    ctx->ecx = 1;
    ctx->edx = 0;
    return NULL;
}

BENCH64_SETUP("lat64/div", "dependent chain of `divq %rcx` (RDX:RAX = 0:2^64-1, RCX = 1)",
              "movq $-1, %rax \n movq %rax, %rbx", "divq %rcx", .prepare = div64_prep, .insns = 1);
/* DIV r64 with the smallest operands: RDX:RAX = 0:1 / RCX = 1 (the harness's
 * RAX = 1), the quotient 1 again each time: uarch-bench's "basic/64-bit div"
 * (travisdowns/uarch-bench, x86-methods.asm div_64_64: 1/1 = 1). Beside
 * lat64/div it shows how much of the latency the dividend's width costs. */
BENCH64("lat64/div/one", "dependent chain of `divq %rcx` (RDX:RAX = 0:1, RCX = 1: 1/1 = 1)",
        "divq %rcx", .prepare = div64_prep, .insns = 1);
BENCH64_SETUP("lat64/div/tput", "`xorl %edx, %edx; movq %rbx, %rax; divq %rcx` (RBX = 2^64-1)",
              "movq $-1, %rax \n movq %rax, %rbx", "xorl %edx, %edx \n movq %rbx, %rax \n divq %rcx",
              .prepare = div64_prep, .insns = 3);
BENCH64_SETUP("lat64/idiv", "dependent chain of `idivq %rcx` (RDX:RAX = 0:2^63-1, RCX = 1)",
              "movabsq $0x7fffffffffffffff, %rax", "idivq %rcx", .prepare = div64_prep, .insns = 1);
BENCH64_SETUP("lat64/div32", "DIV r32 in long mode: `divl %ecx` (EDX:EAX = 0:0xffffffff, ECX = 1)",
              "movl $0xffffffff, %eax", "divl %ecx", .prepare = div64_prep, .insns = 1);
