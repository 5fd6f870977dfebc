/* What a benchmark's .prepare hook may ask of the harness (included by
 * bench.h, the one header a benchmark file sees). A benchmark never touches
 * an MSR, the guard or the log itself: it asks here, and gets NULL (go on)
 * or the reason it must be skipped. */
#ifndef CK_BENCH_SERVICES_H
#define CK_BENCH_SERVICES_H
#include <stdint.h>

/* A skip reason worded once (printf-style) into a buffer of the harness's;
 * valid until the next call. */
const char *bench_why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reads msr once through the platform's fault-safe path (ring 0 only). */
const char *bench_prove_rdmsr(uint32_t msr, uint64_t *value);
/* Writes value to msr once through the same path. */
const char *bench_prove_wrmsr(uint32_t msr, uint64_t value);
/* Runs fn once under the fault guard; `what` names it in the reason. */
const char *bench_prove_run(void (*fn)(void *), const char *what);

/* The MSR of performance counter 0 the PMU layer knows for this CPU
 * (P5 CTR0 0x12, Intel IA32_PMC0 0xC1, AMD PerfCtr0 0xC0010004), or 0 with
 * *reason set. */
uint32_t bench_counter0_msr(const char **reason);
/* A performance counter's MSR that no event of this benchmark's run counts
 * on: counter 0 while no event is counted, else the one the PMU layer
 * holds for it (counters_hold_spare); 0 with *reason when there is none. */
uint32_t bench_spare_counter_msr(const char **reason);
/* RDPMC exists on this CPU (Pentium MMX, Pentium Pro, K7 and later), or
 * a reason why not. */
const char *bench_rdpmc_expected(void);

/* The last-level cache: the largest data or unified cache CPUID describes
 * (leaf 4, 0x8000001D, leaf 2 or 0x80000006, as the cpu room decoded them),
 * in bytes; 0 when none is described. *level gets its level. */
uint64_t bench_llc_bytes(unsigned *level);

/* The pointer chase of mem/chase and mem64/chase: in the large memory (big,
 * big_size), one pointer of ptr_bytes (4: a 32-bit chain, `movl (%esi),
 * %esi`; 8: a 64-bit one, `movq (%rsi), %rsi`, valid anywhere in the address
 * space) at the start of each 64-byte line of `bytes`, each pointing at the
 * next line of one random cycle through all of them (a Sattolo shuffle with
 * a fixed-seed xorshift32: every run walks the same chain, the prefetchers
 * cannot guess it). NULL with *start = the first line, or why not. */
#define BENCH_CHASE_LINE 64u
const char *bench_chase_build(uint8_t *big, uint64_t big_size, uint64_t bytes, unsigned ptr_bytes,
                              uintptr_t *start);

/* The size of the 4xLLC chase (mem/chase/4xLLC, mem64/chase/4xLLC): four
 * times the last-level cache CPUID describes, so the curve always ends in
 * DRAM (a 64 MiB chain stays partly cached in a 320 MB L3), or the largest
 * chain that fits in ctx's large memory and below max_bytes (what the
 * pointers can reach); without a described cache, the largest that fits,
 * at most 256 MiB. Sets ctx->llc (the record's working_set against llc says
 * which limit applied). NULL with *bytes, or why there is no room. */
struct bench_ctx;
const char *bench_chase_llc_size(struct bench_ctx *ctx, uint64_t max_bytes, uint64_t *bytes);

#endif
