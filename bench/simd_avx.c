/* avx/: 256-bit VEX instructions (AVX2, FMA) as latency chains, plus one
 * throughput body. Each needs its CPUID feature and the XSAVE state the OS
 * enabled: CPUID AVX alone is not enough, XCR0.SSE and XCR0.AVX must be set
 * (SDM Vol. 1 §14.3 "Detection of Intel AVX instructions"); bench_unmet
 * checks both and names what is missing.
 *
 * The setup zeroes the registers once (VPXOR), so the chains work on zeros:
 * no denormal or NaN operand changes the floating-point timing. No
 * expectations: docs/references.md cites no per-microarchitecture value for
 * these instructions yet. */
#include "bench.h"

#define AVX_ZERO                                                               \
    "vpxor %ymm0, %ymm0, %ymm0\n"                                              \
    "vpxor %ymm1, %ymm1, %ymm1\n"                                              \
    "vpxor %ymm2, %ymm2, %ymm2\n"                                              \
    "vpxor %ymm3, %ymm3, %ymm3"

BENCH_SETUP("avx/vpaddd", "VPADDD ymm latency: each add depends on the last (AVX2)",
            AVX_ZERO,
            "vpaddd %ymm1, %ymm0, %ymm0",
            .needs = { FEAT_AVX, FEAT_AVX2 }, .insns = 1);

BENCH_SETUP("avx/vpaddd/tput", "VPADDD ymm throughput: four independent adds (AVX2)",
            AVX_ZERO,
            "vpaddd %ymm0, %ymm0, %ymm0\n"
            "vpaddd %ymm1, %ymm1, %ymm1\n"
            "vpaddd %ymm2, %ymm2, %ymm2\n"
            "vpaddd %ymm3, %ymm3, %ymm3",
            .needs = { FEAT_AVX, FEAT_AVX2 }, .insns = 4, .per_body = 4);

BENCH_SETUP("avx/vpmulld", "VPMULLD ymm latency: each multiply depends on the last (AVX2)",
            AVX_ZERO,
            "vpmulld %ymm1, %ymm0, %ymm0",
            .needs = { FEAT_AVX, FEAT_AVX2 }, .insns = 1);

BENCH_SETUP("avx/vfmadd231ps", "VFMADD231PS ymm latency: chained through the accumulator (FMA)",
            AVX_ZERO,
            "vfmadd231ps %ymm1, %ymm2, %ymm0",
            .needs = { FEAT_AVX, FEAT_FMA }, .insns = 1);

/* VPERMD: the data operand is the chain; the indices (ymm1) stay zero. */
BENCH_SETUP("avx/vpermd", "VPERMD ymm latency: each permute depends on the last (AVX2)",
            AVX_ZERO,
            "vpermd %ymm0, %ymm1, %ymm0",
            .needs = { FEAT_AVX, FEAT_AVX2 }, .insns = 1);
