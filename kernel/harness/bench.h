/* Declaring a benchmark. A file in bench/ holds records like
 *
 *     BENCH("p5/agi/stall", "address register written just before the load",
 *           "xorl $4, %esi \n movl (%esi), %eax");
 *
 * and that is all: the record lands in the ck_benches section, the harness
 * finds it, checks what it needs, times it and reports it.
 *
 * The body is AT&T assembly. The harness copies it CK_MAX_COPIES times in a
 * row and, per sample, runs U or 2U of those copies (and 0, the empty body)
 * inside a loop of L iterations between serialized counter reads, so the
 * difference (t(2U) - t(U)) / (U*L) is the cost of one body with the loop
 * and the reads cancelled. What the body may assume:
 *   ESI  the scratch data (64 KiB, 4 KiB aligned, on pages of its own)
 *   EDI  ESI + 32 KiB
 *   EAX=1 EBX=1 ECX=1 EDX=0 at entry (a .prepare hook may change them;
 *        BENCH_SETUP's setup, a loaded file's init, runs after they are
 *        loaded and what it leaves is what the first copy sees, in the probe
 *        run too: docs/registers.md is the whole contract)
 *   ESP  the harness's benchmark stack (16 KiB): PUSH/POP must balance
 *        within one body
 * It must not touch EBP (the loop counter), must leave ESI/EDI pointing into
 * the scratch data, and must not write outside it. The harness checks what
 * it can (measure.c): a probe run of one copy (probe.S) before timing must leave ESP
 * and EBP as they were, every run must end with the ESP it began with, and
 * the stack's bottom must keep its guard pattern; a body that breaks one is
 * reported like a fault ("ESP corrupted", "EBP corrupted", "stack overflow"). Anything more elaborate
 * (a pointer chain, a table) is built by a C .prepare hook, outside timing.
 *
 * Optional fields (designated initializers after the body):
 *   .needs   = { FEAT_SSE2 }         CPUID features (cpu.h), all required
 *   .ring0   = true                  privileged: skipped by the hosted runner
 *   .vendor  = VENDOR_INTEL, .family = 5   only on that vendor / family
 *   .events  = "v_pipe agi_stalls"   counter events worth showing (PMU tables)
 *   .prepare = fn                    const char *fn(struct bench_ctx *): NULL or a skip reason
 *   .cold    = true                  measure the first execution (no warm-up)
 *   .carry   = true                  each run starts with the ESI the last one ended
 *                                    with (walk a long chain instead of its head)
 *   .reference = true                the harness's reference body itself (calib/add_chain):
 *                                    its cycles need no reference timed alongside
 *   .unit    = BENCH_PER_BODY | per-instruction count: .insns = 2 divides the result
 *   .per_body = 4                   the body is 4 independent copies of one instruction
 *                                    (a /tput body): the result is also given per
 *                                    instruction (per_instruction), uops.info's
 *                                    reciprocal throughput beside the cost per body
 * What a benchmark is expected to cost is no part of its declaration: each
 * microarchitecture's file in kernel/uarch/ has a table by benchmark name.
 */
#ifndef CK_BENCH_H
#define CK_BENCH_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "uarch/uarch.h"
#include "timing_page.h"
#include "bench_services.h"

#define CK_MAX_COPIES 64
#define BENCH_NEEDS_MAX 4
#define BENCH_EXPECT_MAX 6 /* a loaded benchmark file's expectations */

/* An expectation a loaded benchmark file brings for one microarchitecture
 * (built-in benchmarks have theirs in kernel/uarch/). */
struct bench_expect {
    const struct uarch *uarch;       /* NULL ends the list */
    struct uarch_expect value;
};

/* Registers the body starts with, and the scratch data (see above). */
struct bench_ctx {
    uint32_t eax, ebx, ecx, edx, esi, edi;
    uint32_t rsi_hi;       /* 64-bit bodies: bits 63:32 of RSI (a chain above 4 GiB); 0 elsewhere */
    uint8_t *scratch;
    uint32_t scratch_size;
    uint8_t *big;          /* large memory for a benchmark with .big (NULL when none) */
    uint64_t big_size;
    /* Set by a .prepare hook that walks memory, for the result record: the
     * bytes it walks, and the last-level cache size it was sized from (0:
     * not said). */
    uint64_t working_set, llc;
};

struct bench {
    const char *name;                 /* "group/case" */
    const char *desc;
    void (*fn)(void);                 /* generated: prologue, loop, epilogue */
    const uint8_t *copies, *copies_end;
    int needs[BENCH_NEEDS_MAX];       /* enum cpu_feature; FEAT_NONE (0) ends the list */
    bool ring0;
    enum cpu_vendor vendor;           /* VENDOR_UNKNOWN: any */
    unsigned family;                  /* 0: any */
    const char *events;
    const char *(*prepare)(struct bench_ctx *ctx);
    bool big;                         /* its .prepare builds in the large memory (ctx->big) */
    bool cold;
    uint32_t insns;                   /* when > 1: also reported per instruction */
    uint32_t per_body;                /* copies of one instruction in the body (0: not such a
                                         body): the result per instruction too */
    uint32_t loops;                   /* 0: the harness default */
    bool carry;                       /* ESI at the end of a run starts the next one */
    bool reference;                   /* the same body as the harness's reference (trust.h):
                                         not timed alongside itself */
    /* Loaded benchmarks (kernel/load/): the file's hints and code size. */
    uint32_t unroll, samples;         /* 0: the harness default (like .loops) */
    uint8_t mode;                     /* 0 or 32: 32-bit code; 64: long-mode code, run through
                                         platform->call64 (BENCH64, or a loaded file's mode) */
    bool loaded;                      /* read at run time, not built in */
    /* Where a run of n copies is entered when the body's copies are placed
     * at a declared alignment (kernel/load: a loaded body's, at 64 bytes +
     * alignment_offset, for every n alike); NULL, or NULL returned:
     * copies_end - n * size. */
    const uint8_t *(*place)(const struct bench *b, uint32_t copies, uint32_t *offset);
    const struct bench_expect *file_expect; /* a loaded file's own: BENCH_EXPECT_MAX, NULL-ended */
};

#define BENCH_SECTION __attribute__((section("ck_benches"), used, aligned(sizeof(void *))))

/* The record and its generated code. The timed region, from the first read
 * to the second, contains only: register loads, the body copies, the loop
 * (jmp through ck_entry, dec %ebp, jnz) and the reads themselves. */
#define BENCH(name, desc, body, ...) CK_BENCH_(__COUNTER__, name, desc, "", body, __VA_ARGS__)
/* As BENCH, with setup assembly run once after the first read (e.g. FINIT). */
#define BENCH_SETUP(name, desc, setup, body, ...) \
    CK_BENCH_(__COUNTER__, name, desc, setup, body, __VA_ARGS__)

#define CK_BENCH_(id, ...) CK_BENCH__(id, __VA_ARGS__)
#define CK_BENCH__(id, name_, desc_, setup_, body_, ...)                                   \
    CK_BENCH_CODE_(id, setup_, body_);                                                     \
    static const struct bench ck_bench_##id BENCH_SECTION = {                             \
        .name = name_, .desc = desc_, .fn = ck_fn_##id, .copies = ck_copies_##id,          \
        .copies_end = ck_copies_end_##id, __VA_ARGS__ }

/* A record the harness keeps for itself (not in the registry, never listed
 * or selected): its own reference bodies, which no benchmark file can remove. */
#define BENCH_PRIVATE(var, name, desc, body, ...) CK_PRIVATE_(__COUNTER__, var, name, desc, body, __VA_ARGS__)
#define CK_PRIVATE_(id, ...) CK_PRIVATE__(id, __VA_ARGS__)
#define CK_PRIVATE__(id, var, name_, desc_, body_, ...)                                    \
    CK_BENCH_CODE_(id, "", body_);                                                         \
    const struct bench var = {                                                             \
        .name = name_, .desc = desc_, .fn = ck_fn_##id, .copies = ck_copies_##id,          \
        .copies_end = ck_copies_end_##id, __VA_ARGS__ }

#define CK_BENCH_CODE_(id, setup_, body_)                                                  \
    __asm__(".pushsection .text.bench,\"ax\"\n"                                           \
            ".balign 64\n"                                                                 \
            "ck_fn_" #id ":\n"                                                             \
            "  ck_prologue\n"                                                              \
            "  " setup_ "\n"                                                               \
            "  .balign 16\n"                                                               \
            "ck_top_" #id ":\n"                                                            \
            "  jmp *ck_entry\n"                                                            \
            "ck_copies_" #id ":\n"                                                         \
            "  .rept " CK_STR(CK_MAX_COPIES) "\n"                                          \
            "  " body_ "\n"                                                                \
            "  .endr\n"                                                                    \
            "ck_copies_end_" #id ":\n"                                                     \
            "  decl %ebp\n"                                                                \
            "  jnz ck_top_" #id "\n"                                                       \
            "  ck_epilogue\n"                                                              \
            ".popsection\n");                                                              \
    extern void ck_fn_##id(void);                                                          \
    extern const uint8_t ck_copies_##id[], ck_copies_end_##id[]

#include "bench_asm.h"
#include "bench_desc.h"

/* 64-bit benchmarks (docs/adding-a-benchmark.md, "64-bit bodies"): the body
 * is long-mode code, generated by CK_BENCH64_CODE_ (bench_asm64.h) into
 * .text.long64, and the record says .mode = 64. The harness runs it through
 * platform->call64 and skips it with platform->long_mode_why where that is
 * NULL. At entry: RAX..RDI as in a 32-bit body (zero-extended), R8-R15 = 0;
 * RBP is the loop counter, RSP the benchmark stack (below 4 GiB). */
#define BENCH64(name, desc, body, ...) CK_BENCH64_(__COUNTER__, name, desc, "", body, __VA_ARGS__)
#define BENCH64_SETUP(name, desc, setup, body, ...) \
    CK_BENCH64_(__COUNTER__, name, desc, setup, body, __VA_ARGS__)
#define CK_BENCH64_(id, ...) CK_BENCH64__(id, __VA_ARGS__)
#define CK_BENCH64__(id, name_, desc_, setup_, body_, ...)                                 \
    CK_BENCH64_CODE_(id, setup_, body_);                                                   \
    static const struct bench ck_bench_##id BENCH_SECTION = {                             \
        .name = name_, .desc = desc_, .fn = ck_fn_##id, .copies = ck_copies_##id,          \
        .copies_end = ck_copies_end_##id, .mode = 64, __VA_ARGS__ }

/* The harness's own 64-bit records (the reference of the 64-bit hosted runner). */
#define BENCH64_PRIVATE(var, name, desc, body, ...) \
    CK_PRIVATE64_(__COUNTER__, var, name, desc, body, __VA_ARGS__)
#define CK_PRIVATE64_(id, ...) CK_PRIVATE64__(id, __VA_ARGS__)
#define CK_PRIVATE64__(id, var, name_, desc_, body_, ...)                                  \
    CK_BENCH64_CODE_(id, "", body_);                                                       \
    const struct bench var = {                                                             \
        .name = name_, .desc = desc_, .fn = ck_fn_##id, .copies = ck_copies_##id,          \
        .copies_end = ck_copies_end_##id, .mode = 64, __VA_ARGS__ }

#define CK_BENCH64_CODE_(id, setup_, body_)                                                \
    __asm__(".pushsection .text.long64,\"ax\"\n"                                          \
            ".code64\n"                                                                   \
            ".balign 64\n"                                                                \
            "ck_fn_" #id ":\n"                                                            \
            "  ck64_prologue\n"                                                           \
            "  " setup_ "\n"                                                              \
            "  .balign 16\n"                                                              \
            "ck_top_" #id ":\n"                                                           \
            "  jmp *ck_entry(%rip)\n"                                                     \
            "ck_copies_" #id ":\n"                                                        \
            "  .rept " CK_STR(CK_MAX_COPIES) "\n"                                         \
            "  " body_ "\n"                                                               \
            "  .endr\n"                                                                   \
            "ck_copies_end_" #id ":\n"                                                    \
            "  decl %ebp\n"                                                               \
            "  jnz ck_top_" #id "\n"                                                      \
            "  ck64_epilogue\n"                                                           \
            "  " CK_CODE_DEFAULT "\n"                                                     \
            ".popsection\n");                                                             \
    extern void ck_fn_##id(void);                                                          \
    extern const uint8_t ck_copies_##id[], ck_copies_end_##id[]

#include "bench_asm64.h"

/* Measurements between processors (the smp/ group): BENCH_SMP. */
#include "bench_smp.h"

#endif
