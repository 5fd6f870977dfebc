/* Shared-cache latency under load (smp/chase/loaded, issue 12): a pointer
 * chase over half the last-level cache on the boot processor, timed with
 * its TSC, first alone (step 0), then with 1, 2, ... of the other running
 * processors each streaming through a buffer of its own (a read of every
 * 64-byte line, buffers larger than the LLC where the memory allows) until
 * the boot processor raises a shared stop flag. Each streamer times itself
 * with its own TSC and counts the bytes it read, so its bandwidth needs no
 * cross-processor clock. The chain is the mem/chase one
 * (bench_chase_build: one pointer per line, one random cycle), so the
 * prefetchers cannot follow it and every load is a full LLC hit while the
 * streamers compete for the cache and the memory path. */
#ifndef CK_SMP_LOADED_CHASE_H
#define CK_SMP_LOADED_CHASE_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/platform.h"

#define LOADED_MAX_STREAMERS 15 /* steps 0..15: 16 processors, like a c2c matrix */
#define LOADED_LOADS 256u       /* dependent loads per timed sample */
#define LOADED_SAMPLES 16u      /* samples per step: 4096 loads, small enough for TCG */
#define LOADED_LINE 64u

/* What to chase and where (the glue fills it: run/smp_runs.c). */
struct loaded_config {
    uint8_t *big;               /* the large memory the mem/ benchmarks get */
    uint64_t big_size;
    uint64_t llc;               /* last-level cache bytes (CPUID), 0: not described */
    unsigned llc_level;
};

struct loaded_stream {
    uint32_t apic_id;
    uint64_t bytes;             /* read while it ran */
    uint64_t ticks;             /* its own TSC, first read to last (0: it never ran) */
};

struct loaded_step {
    unsigned streamers;         /* how many streamed during this step */
    uint64_t min_x100, median_x100; /* TSC ticks per load of the chase, x100 */
    struct loaded_stream stream[LOADED_MAX_STREAMERS];
};

struct loaded_result {
    const char *skip;           /* why it was not measured (NULL: measured) */
    uint32_t chaser_apic;       /* the boot processor */
    uint64_t working_set, llc, stream_bytes;
    unsigned llc_level;
    uint64_t hz;                /* the TSC's calibrated rate (0: no ns, no MB/s) */
    unsigned nsteps;
    struct loaded_step step[LOADED_MAX_STREAMERS + 1];
    unsigned lost;              /* streamers abandoned (faulted or did not stop) */
    uint32_t lost_apic[LOADED_MAX_STREAMERS];
};

/* The sizes from the LLC and the memory: a chain of llc / 2 and, for
 * nstreamers, buffers of 2 x llc each or an equal share of what is left,
 * 4 KiB-aligned. NULL, or why there is no room. */
const char *loaded_plan(const struct loaded_config *c, unsigned nstreamers, uint64_t *chain,
                        uint64_t *stream);

/* The streamers of a step: the first k of n processors not lost, their
 * indices into pick. False when fewer than k are left. */
bool loaded_pick(const bool *lost, unsigned n, unsigned k, unsigned *pick);

/* Measures with the running processors of s (the boot one chases). */
void loaded_chase_measure(const struct platform *p, const struct smp_info *s, const struct loaded_config *c,
                          uint64_t hz, struct loaded_result *out);

#endif
