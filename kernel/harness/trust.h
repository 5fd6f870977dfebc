/* Can the timings of this run be trusted? Decided once, from what the CPU
 * says about itself (a hypervisor, QEMU's TCG) and from a known piece of
 * code: a chain of dependent ADDs must cost about one cycle each. */
#ifndef CK_TRUST_H
#define CK_TRUST_H
#include <stdbool.h>
#include <stdint.h>
#include "bench.h"
#include "measure.h"

/* The reference (reference.c): a dependent ADD chain, one core cycle per
 * ADD on any x86 since the 486. */
extern const struct bench trust_reference;

struct trust {
    bool checked;             /* trust_check ran: trusted is its verdict */
    bool trusted;
    char why[200];
    const char *short_why;    /* a few words for the closing line ("emulator"); NULL when trusted */
    bool add_known;
    int64_t add_ticks_x100;   /* ticks per dependent ADD (the cycle estimate's unit) */
    uint32_t ref_loops;       /* L the reference was timed with (MEASURE_REF_UNROLL copies) */
    bool cycles_exact;        /* the TSC counts core cycles (P5) */
};

extern struct trust trust;

/* Times the reference and decides; fills `trust` (write_trust reports it).
 * The reference is timed with MEASURE_REF_UNROLL copies and
 * MEASURE_REF_LOOPS iterations (grown for a short sample) whatever unroll=
 * and loops= say, as it is beside every result; pl gives the samples. */
void trust_check(const struct plan *pl, const struct bench_ctx *ctx);

/* Core cycles x100 for a tick count x100 (exact or estimated); false when unknown. */
bool trust_cycles_x100(int64_t ticks_x100, int64_t *cycles_x100);

#endif
