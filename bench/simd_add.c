/* simd/: Goossens' sadd versus vadd ([BG] in docs/references.md, "comparer
 * l'addition scalaire à l'addition vectorielle"): z = x + y over 64 bytes,
 * byte by byte with integer registers, then 8 bytes at a time with MMX
 * PADDB and 16 at a time with SSE2 PADDB. Every body does the same 64
 * bytes, so the per-body numbers compare directly (the course notes measured 132-133
 * cycles for sadd and 16-18 for vadd on Core 2).
 *
 * Data in the scratch page: x at ESI+0, y at ESI+64, z at EDI+0 (32 KiB
 * away, so the stores never touch the lines being loaded). The offsets
 * come from an assembler counter that restarts in every copy, so all
 * copies are identical. Four registers take turns so consecutive bytes are
 * independent, as a compiler would schedule them. */
#include "bench.h"

static const char *fill_xy(struct bench_ctx *ctx)
{
    for (uint32_t i = 0; i < 128; i++)
        ctx->scratch[i] = (uint8_t)(i * 37 + 11);
    return NULL;
}

BENCH("simd/sadd", "64 bytes per body, one byte at a time: movb, addb, movb (i386)",
      ".set ck_sadd_i, 0\n"
      ".rept 16\n"
      ".irpc r,abcd\n"
      "movb ck_sadd_i(%esi), %\\r\\()l\n"
      "addb ck_sadd_i+64(%esi), %\\r\\()l\n"
      "movb %\\r\\()l, ck_sadd_i(%edi)\n"
      ".set ck_sadd_i, ck_sadd_i+1\n"
      ".endr\n"
      ".endr",
      .prepare = fill_xy, .insns = 192);

/* EMMS ends every body: the MMX registers alias the x87 stack, and the
 * suite must leave the FPU usable whatever runs next. */
BENCH("simd/vadd/mmx", "64 bytes per body, 8 at a time: movq, paddb, movq (MMX) and one EMMS",
      ".set ck_vadd_mmx_i, 0\n"
      ".rept 2\n"
      ".irpc r,0123\n"
      "movq ck_vadd_mmx_i(%esi), %mm\\r\n"
      "paddb ck_vadd_mmx_i+64(%esi), %mm\\r\n"
      "movq %mm\\r, ck_vadd_mmx_i(%edi)\n"
      ".set ck_vadd_mmx_i, ck_vadd_mmx_i+8\n"
      ".endr\n"
      ".endr\n"
      "emms",
      .prepare = fill_xy, .needs = { FEAT_MMX }, .insns = 25);

BENCH("simd/vadd/sse2", "64 bytes per body, 16 at a time: movdqa, paddb, movdqa (SSE2)",
      ".set ck_vadd_sse2_i, 0\n"
      ".irpc r,0123\n"
      "movdqa ck_vadd_sse2_i(%esi), %xmm\\r\n"
      "paddb ck_vadd_sse2_i+64(%esi), %xmm\\r\n"
      "movdqa %xmm\\r, ck_vadd_sse2_i(%edi)\n"
      ".set ck_vadd_sse2_i, ck_vadd_sse2_i+16\n"
      ".endr",
      .prepare = fill_xy, .needs = { FEAT_SSE2 }, .insns = 12);
