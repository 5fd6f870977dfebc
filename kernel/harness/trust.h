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
    bool trusted;
    char why[200];
    bool add_known;
    int64_t add_ticks_x100;   /* ticks per dependent ADD (the cycle estimate's unit) */
    bool cycles_exact;        /* the TSC counts core cycles (P5) */
};

extern struct trust trust;

/* Times the reference and decides; fills `trust` (write_trust reports it). */
void trust_check(const struct plan *pl, const struct bench_ctx *ctx);

/* Core cycles x100 for a tick count x100 (exact or estimated); false when unknown. */
bool trust_cycles_x100(int64_t ticks_x100, int64_t *cycles_x100);

#endif
