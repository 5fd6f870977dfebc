/* simd64/: vector latency and throughput in long mode (BENCH64): SSE on
 * xmm, AVX2 on ymm, AVX-512 on zmm, with the registers only long mode has
 * (xmm8-15, and zmm16-31 and the opmask registers k0-k7 of AVX-512).
 *
 * Gating (bench_unmet): the CPUID feature of each instruction, and the
 * state the OS enabled: a VEX need (AVX, AVX2, FMA) needs XCR0.SSE|AVX (SDM
 * Vol. 1 §14.3); an AVX-512 need also XCR0 bits 5-7, opmask, ZMM_Hi256 and
 * Hi16_ZMM (SDM Vol. 1 §15.2). A CPU or OS without them skips with the
 * reason. SSE needs nothing beyond CPUID in 64-bit mode (every x86-64 CPU
 * has SSE2, and an x86-64 OS enables it: AMD APM Vol. 2 §11.1).
 *
 * Latency bodies chain one register through itself, copy after copy;
 * throughput bodies run the same instruction on twelve registers in turn
 * (twelve chains: more than latency x pipes on current cores, 4 x 2 for
 * an FMA, 2 x 4 for an add, so the pipes and not the chains are the limit;
 * with exactly 8 chains this machine read 0.33 instead of 0.25 for VPADDD:
 * any scheduling slip shows when no spare chain is ready). A result of
 * latency / 12 would mean the chains are still the limit.
 * Each setup zeroes the registers once, so the floating-point chains work
 * on zeros: no denormal or NaN operand changes the timing.
 *
 * The AVX upper lanes power up on first use (a warm-up the harness's own
 * warm-up runs cover); the record's stable/reruns fields say whether the
 * samples settled. No expectations: docs/references.md gives Zen 5 values
 * ([IX3]) and Golden Cove ones for none of these, and the model table's
 * UARCH_ZEN spans Zen 1 to Zen 5, whose vector units differ (Zen 4 runs a
 * 512-bit operation as two 256-bit halves; Zen 1 a 256-bit one as two
 * 128-bit halves). A Zen 5 row of its own would let [IX3] be stated. */
#include "bench.h"

/* Zeroes every register the bodies use: 0-15 (xmm, ymm), 0-2 and 16-31 (zmm). */
#define XMM_ZERO ".irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n pxor %xmm\\n, %xmm\\n\n .endr"
#define YMM_ZERO ".irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n vpxor %ymm\\n, %ymm\\n, %ymm\\n\n .endr"
#define ZMM_ZERO ".irp n,0,1,2,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n" \
                 " vpxord %zmm\\n, %zmm\\n, %zmm\\n\n .endr"
/* The throughput bodies' TPUT_CHAINS registers (xmm1, xmm2 are the sources). */
#define TPUT_CHAINS 12
#define XMM_T "xmm0,xmm3,xmm4,xmm5,xmm6,xmm7,xmm8,xmm9,xmm10,xmm11,xmm12,xmm13"
#define YMM_T "ymm0,ymm3,ymm4,ymm5,ymm6,ymm7,ymm8,ymm9,ymm10,ymm11,ymm12,ymm13"
#define ZMM_T "zmm0,zmm16,zmm17,zmm18,zmm19,zmm20,zmm21,zmm22,zmm23,zmm24,zmm25,zmm26"

/* One instruction as a latency and a throughput body:
 *   VEC(name, setup, "insn with \\r carried", lat reg, "tput regs", their count, needs...) */
#define VEC(...) VEC_(__COUNTER__, __VA_ARGS__)
#define VEC_(id, ...) VEC__(id, __VA_ARGS__)
#define VEC__(id, name, setup, insn, lat_reg, tput_regs, n, ...)                               \
    BENCH_DESC(ck_desc_vec_##id, "dependent chain of ", lat_reg, insn, "");                   \
    BENCH_DESC(ck_desc_vec_##id##_tput, CK_STR(n) " independent chains: ", tput_regs, insn, ""); \
    BENCH64_SETUP("simd64/" name, ck_desc_vec_##id, setup,                                   \
                  ".irp r," lat_reg "\n" insn "\n.endr", .insns = 1, __VA_ARGS__);            \
    BENCH64_SETUP("simd64/" name "/tput", ck_desc_vec_##id##_tput,                           \
                  setup, ".irp r," tput_regs "\n" insn "\n.endr", .insns = n,                   \
                  .per_body = n, __VA_ARGS__)

/* SSE (legacy encoding, 128 bits): xmm8-11 only exist in long mode. */
VEC("paddd_xmm", XMM_ZERO, "paddd %xmm1, %\\r", "xmm0", XMM_T, TPUT_CHAINS, .needs = { FEAT_SSE2 });
VEC("pmulld_xmm", XMM_ZERO, "pmulld %xmm1, %\\r", "xmm0", XMM_T, TPUT_CHAINS, .needs = { FEAT_SSE4_1 });
VEC("pshufd_xmm", XMM_ZERO, "pshufd $0x1b, %\\r, %\\r", "xmm0", XMM_T, TPUT_CHAINS, .needs = { FEAT_SSE2 });

/* AVX2 and FMA (VEX, 256 bits). */
VEC("vpaddd_ymm", YMM_ZERO, "vpaddd %ymm1, %\\r, %\\r", "ymm0", YMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX, FEAT_AVX2 });
VEC("vpmulld_ymm", YMM_ZERO, "vpmulld %ymm1, %\\r, %\\r", "ymm0", YMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX, FEAT_AVX2 });
VEC("vfmadd231ps_ymm", YMM_ZERO, "vfmadd231ps %ymm1, %ymm2, %\\r", "ymm0", YMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX, FEAT_FMA });
/* VPERMD: the data operand (last source) is the chain; the indices (ymm1) stay 0. */
VEC("vpermd_ymm", YMM_ZERO, "vpermd %\\r, %ymm1, %\\r", "ymm0", YMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX, FEAT_AVX2 });
VEC("vpshufb_ymm", YMM_ZERO, "vpshufb %ymm1, %\\r, %\\r", "ymm0", YMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX, FEAT_AVX2 });

/* AVX-512 (EVEX, 512 bits); zmm16-19 need Hi16_ZMM. */
VEC("vpaddd_zmm", ZMM_ZERO, "vpaddd %zmm1, %\\r, %\\r", "zmm0", ZMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX512F });
VEC("vpmulld_zmm", ZMM_ZERO, "vpmulld %zmm1, %\\r, %\\r", "zmm0", ZMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX512F });
VEC("vfmadd231ps_zmm", ZMM_ZERO, "vfmadd231ps %zmm1, %zmm2, %\\r", "zmm0", ZMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX512F });
VEC("vpermd_zmm", ZMM_ZERO, "vpermd %\\r, %zmm1, %\\r", "zmm0", ZMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX512F });
VEC("vpshufb_zmm", ZMM_ZERO, "vpshufb %zmm1, %\\r, %\\r", "zmm0", ZMM_T, TPUT_CHAINS,
    .needs = { FEAT_AVX512F, FEAT_AVX512BW });
/* EVEX at 128 and 256 bits (AVX512VL) on the upper registers. */
VEC("vpaddd_evex_xmm", ZMM_ZERO, "vpaddd %xmm1, %\\r, %\\r", "xmm16",
    "xmm16,xmm17,xmm18,xmm19,xmm20,xmm21,xmm22,xmm23,xmm24,xmm25,xmm26,xmm27", TPUT_CHAINS,
    .needs = { FEAT_AVX512F, FEAT_AVX512VL });
VEC("vpaddd_evex_ymm", ZMM_ZERO, "vpaddd %ymm1, %\\r, %\\r", "ymm16",
    "ymm16,ymm17,ymm18,ymm19,ymm20,ymm21,ymm22,ymm23,ymm24,ymm25,ymm26,ymm27", TPUT_CHAINS,
    .needs = { FEAT_AVX512F, FEAT_AVX512VL });

/* Mask operations: KANDW on k1..k7 (the tput body: k1 and k3-k7, the six
 * chains there are registers for; k2 is the source) (AVX512F, SDM Vol. 2 KANDW); the masked
 * add merges into zmm0 under k1 (all ones: every lane written). */
#define K_SETUP ZMM_ZERO " \n .irp n,1,2,3,4,5,6,7\n kxnorw %k0, %k0, %k\\n\n .endr"
VEC("kandw", K_SETUP, "kandw %k2, %\\r, %\\r", "k1", "k1,k3,k4,k5,k6,k7", 6, .needs = { FEAT_AVX512F });
BENCH64_SETUP("simd64/vpaddd_zmm_masked", "dependent chain of `vpaddd %zmm1, %zmm0, %zmm0{%k1}` (k1 all ones)",
              K_SETUP, "vpaddd %zmm1, %zmm0, %zmm0{%k1}", .insns = 1, .needs = { FEAT_AVX512F });

/* Gathers: 8 (ymm) or 16 (zmm) dwords from the scratch data at index 0 (the
 * index register stays 0), so every element hits the same line in L1. The
 * mask is consumed by the gather (cleared as elements complete, SDM Vol. 2C
 * VPGATHERDD), so each body re-arms it first: 2 instructions. The gather
 * merges into its destination, which makes the bodies a chain through it. */
BENCH64_SETUP("simd64/vpgatherdd_ymm", "`vpcmpeqd` (mask) then `vpgatherdd %ymm3, (%rsi,%ymm1,4), %ymm0`",
              YMM_ZERO, "vpcmpeqd %ymm3, %ymm3, %ymm3 \n vpgatherdd %ymm3, (%rsi,%ymm1,4), %ymm0",
              .insns = 2, .needs = { FEAT_AVX, FEAT_AVX2 });
BENCH64_SETUP("simd64/vpgatherdd_zmm", "`kxnorw` (mask) then `vpgatherdd (%rsi,%zmm1,4), %zmm0{%k1}`",
              ZMM_ZERO, "kxnorw %k0, %k0, %k1 \n vpgatherdd (%rsi,%zmm1,4), %zmm0{%k1}",
              .insns = 2, .needs = { FEAT_AVX512F });
