/* mem64/chase/: load-to-use latency by pointer chasing with 64-bit pointers
 * (`movq (%rsi), %rsi`), the long-mode counterpart of mem/chase/ at the
 * same working-set sizes (1 KiB to 64 MiB, and 4x the last-level cache).
 *
 * Why a 64-bit form: mem/chase stores 32-bit pointers, so its chain must lie
 * below 4 GiB. The 64-bit hosted runner's large memory is mmap'd above
 * 4 GiB, and in long mode all of RAM may be; 8-byte pointers reach it all.
 * The chain is the same one mem/chase walks (bench_chase_build: one
 * pointer per 64-byte line, one random cycle through every line of the
 * working set, fixed seed), only its pointers are 8 bytes wide; RSI is
 * loaded in full (ck_rsi_hi, bench_asm64.h) and carried from run to run
 * (.carry) so the samples walk the whole cycle.
 *
 * Under QEMU's -icount each copy is exactly one instruction (tests/boot/
 * test_mem64_chase.py asserts 1.00). */
#include "bench.h"

static const char *chase64_prepare(struct bench_ctx *ctx, uint64_t bytes)
{
    uintptr_t start;
    const char *why = bench_chase_build(ctx->big, ctx->big_size, bytes, 8, &start);
    if (why)
        return why;
    ctx->esi = (uint32_t)start;
    ctx->rsi_hi = (uint32_t)((uint64_t)start >> 32);
    ctx->working_set = bytes;
    return NULL;
}

/* mem64/chase/4xLLC: four times the last-level cache, or all that fits
 * (bench_chase_llc_size); unlike mem/chase/4xLLC no 4 GiB ceiling: the
 * pointers are 64-bit. */
static const char *chase64_llc(struct bench_ctx *ctx)
{
    uint64_t bytes;
    const char *why = bench_chase_llc_size(ctx, UINT64_MAX, &bytes);
    return why ? why : chase64_prepare(ctx, bytes);
}

#define CHASE64(label, bytes)                                                                          \
    static const char *chase64_##label(struct bench_ctx *ctx) { return chase64_prepare(ctx, bytes); } \
    BENCH64("mem64/chase/" #label,                                                                     \
            "64-bit pointer chase over " #label "B: one 64-byte line per load, random order",         \
            "movq (%rsi), %rsi", .prepare = chase64_##label, .big = true, .carry = true)

CHASE64(1K, 1u << 10);
CHASE64(4K, 4u << 10);
CHASE64(16K, 16u << 10);
CHASE64(32K, 32u << 10);
CHASE64(64K, 64u << 10);
CHASE64(256K, 256u << 10);
CHASE64(1M, 1u << 20);
CHASE64(4M, 4u << 20);
CHASE64(16M, 16u << 20);
CHASE64(64M, 64u << 20);
BENCH64("mem64/chase/4xLLC", "64-bit pointer chase over 4x the last-level cache (or all that fits): DRAM",
        "movq (%rsi), %rsi", .prepare = chase64_llc, .big = true, .carry = true);
