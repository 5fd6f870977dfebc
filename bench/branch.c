/* branch/: what a predicted and a mispredicted conditional branch cost.
 * Every benchmark runs the same body; only the data differs. The body
 * reads the next byte of a 32 KiB table (ESI + cursor, the cursor wrapping
 * with an AND so it stays inside the scratch page) and branches on its low
 * bit:
 *
 *     movl (%edi), %ecx         the cursor
 *     movb (%esi,%ecx), %al     the next byte
 *     incl %ecx                 advance, wrap at 32 KiB
 *     andl $0x7fff, %ecx
 *     movl %ecx, (%edi)
 *     testb $1, %al
 *     jz 1f                     taken when the bit is 0
 *     nop                       only on the fall-through path
 *   1:
 *
 * The cursor lives in memory (at EDI, past the table), not in a register:
 * the harness reloads the registers at every run, and a register cursor
 * would replay the same first 1600 bits run after run, a sequence that
 * modern predictors learn by heart (measured: 1.2 cycles per body on a
 * Golden Cove host). From memory the walk goes on through all 32 Ki bits.
 * The price is a store-to-load round trip per body, the same for every
 * pattern, so the differences between the benchmarks remain the branch's.
 *
 * A taken branch executes 7 instructions, a fall-through 8. With all bits
 * equal the branch always goes the same way (predicted); alternating bits
 * are a pattern that history-based predictors learn; random bits (a
 * fixed-seed generator) defeat any predictor, so about half of the
 * branches are mispredicted: branch/random minus the mean of taken and
 * not_taken is about half a misprediction penalty.
 *
 * P5: a correctly predicted Jcc costs 1 cycle, a mispredicted one 4 (U
 * pipe) or 5 (V pipe) more (Abrash, Graphics Programming Black Book ch. 20/21,
 * [AB20]/[AB21] in docs/references.md). */
#include "bench.h"

#define BRANCH_TABLE 0x8000u

#define BRANCH_BODY                                                                                \
    "movl (%edi), %ecx \n movb (%esi,%ecx), %al \n incl %ecx \n andl $0x7fff, %ecx \n"             \
    "movl %ecx, (%edi) \n testb $1, %al \n jz 1f \n nop \n 1:"

static uint32_t branch_rng;

static uint32_t branch_next(void)
{
    uint32_t x = branch_rng; /* xorshift32 (Marsaglia 2003) */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return branch_rng = x;
}

enum branch_pattern { ALL_ZERO, ALL_ONE, ALTERNATE, RANDOM };

static const char *branch_fill(struct bench_ctx *ctx, enum branch_pattern p)
{
    branch_rng = 0x2545f491u;
    for (uint32_t i = 0; i < BRANCH_TABLE; i++) {
        uint32_t bit = p == ALL_ZERO ? 0 : p == ALL_ONE ? 1 : p == ALTERNATE ? (i & 1) : (branch_next() >> 16) & 1;
        ctx->scratch[i] = (uint8_t)bit;
    }
    ctx->scratch[BRANCH_TABLE] = ctx->scratch[BRANCH_TABLE + 1] = 0; /* the cursor, at EDI */
    ctx->scratch[BRANCH_TABLE + 2] = ctx->scratch[BRANCH_TABLE + 3] = 0;
    return NULL;
}

static const char *fill_taken(struct bench_ctx *ctx) { return branch_fill(ctx, ALL_ZERO); }
static const char *fill_not_taken(struct bench_ctx *ctx) { return branch_fill(ctx, ALL_ONE); }
static const char *fill_alternate(struct bench_ctx *ctx) { return branch_fill(ctx, ALTERNATE); }
static const char *fill_random(struct bench_ctx *ctx) { return branch_fill(ctx, RANDOM); }

BENCH("branch/taken", "conditional branch always taken (predicted): 7 instructions per body",
      BRANCH_BODY, .prepare = fill_taken);

BENCH("branch/not_taken", "conditional branch never taken (predicted): 8 instructions per body",
      BRANCH_BODY, .prepare = fill_not_taken);

BENCH("branch/alternate", "taken, not taken, taken...: a pattern history predictors learn",
      BRANCH_BODY, .prepare = fill_alternate);

BENCH("branch/random", "taken or not at random (fixed seed): about half mispredicted",
      BRANCH_BODY, .prepare = fill_random);
