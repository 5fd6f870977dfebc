/* mem/chase/: load-to-use latency by pointer chasing, one working-set size
 * per benchmark, from 1 KiB (L1) to 64 MiB, and 4x the last-level cache
 * (DRAM on every machine). Each load's address is the value the previous load
 * returned, so one body ("movl (%esi), %esi") costs one full load latency
 * at that level of the hierarchy.
 *
 * The chain lives in the large memory block (ctx->big): one pointer per
 * 64-byte line, visiting every line of the working set once in a random
 * order (a random single cycle, so the hardware prefetchers cannot guess
 * the next line). The order comes from a fixed-seed generator: every run
 * walks the same chain.
 *
 * Each run goes on where the previous one stopped (.carry: ESI is carried
 * from run to run), so the samples walk the whole cycle rather than its head
 * again and again, and a 64 MiB chain really misses every cache level
 * without a run having to traverse all of it.
 *
 * P5: MOV r32,[m32] dependent chain 2 cycles (1 + AGI) on a P54C with the
 * data in its 8 KiB L1 (InstLatx64/InstLatx64
 * GenuineIntel/GenuineIntel0000526_P54C_InstLatX86.txt; [IL] in
 * docs/references.md). */
#include "bench.h"

#define CHASE_LINE BENCH_CHASE_LINE

/* The chain itself is the harness's (bench_chase_build, shared with the
 * 64-bit bench/mem64_chase.c): 4-byte pointers here. */
static const char *chase_prepare(struct bench_ctx *ctx, uint32_t bytes)
{
    uintptr_t start;
    const char *why = bench_chase_build(ctx->big, ctx->big_size, bytes, 4, &start);
    if (why)
        return why;
    ctx->esi = (uint32_t)start;
    ctx->edi = (uint32_t)start;
    ctx->working_set = bytes;
    return NULL;
}

/* mem/chase/4xLLC: four times the last-level cache, or all that fits
 * (bench_chase_llc_size); the chain's pointers are 32-bit. */
static const char *chase_llc(struct bench_ctx *ctx)
{
    uint64_t bytes;
    const char *why = bench_chase_llc_size(ctx, 0xFFFFFFC0u, &bytes);
    return why ? why : chase_prepare(ctx, (uint32_t)bytes);
}

#define CHASE(label, bytes, ...)                                                                   \
    static const char *chase_##label(struct bench_ctx *ctx) { return chase_prepare(ctx, bytes); } \
    BENCH("mem/chase/" #label, "pointer chase over " #label "B: one 64-byte line per load, random order", \
          "movl (%esi), %esi", .prepare = chase_##label, .big = true, .carry = true, __VA_ARGS__)

CHASE(1K, 1u << 10);
CHASE(4K, 4u << 10);
CHASE(16K, 16u << 10);
CHASE(32K, 32u << 10);
CHASE(64K, 64u << 10);
CHASE(256K, 256u << 10);
CHASE(1M, 1u << 20);
CHASE(4M, 4u << 20);
CHASE(16M, 16u << 20);
CHASE(64M, 64u << 20);
BENCH("mem/chase/4xLLC", "pointer chase over 4x the last-level cache (or all that fits): DRAM",
      "movl (%esi), %esi", .prepare = chase_llc, .big = true, .carry = true);
