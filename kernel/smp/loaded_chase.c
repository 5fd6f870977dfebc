/* Shared-cache latency under load (see loaded_chase.h). The streamers run
 * in the started processors' mailboxes; every wait is bounded (a spin count
 * for a streamer to begin, smp_wait's milliseconds for it to stop), so one
 * that faults or hangs is abandoned and the steps go on with the others. */
#include "loaded_chase.h"
#include "smp_bounds.h"
#include "cpu/cpu_native.h"
#include "harness/bench_services.h"
#include "lib/div64.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "stats/stats.h"

#define CHUNK 4096u           /* a streamer looks at the stop flag once per 4 KiB */
#define MAX_PASSES 4096u      /* a streamer's own bound, should the stop never come */

/* The stop flag, on a line of its own. Plain stores and loads suffice: x86
 * makes a processor's stores visible to the others in program order (SDM
 * Vol. 3A §8.2.2), so a streamer's bytes and ticks are in memory before its
 * mailbox says it finished, and the buffers it was given before it starts. */
static struct {
    volatile uint32_t stop __attribute__((aligned(128)));
} shared __attribute__((aligned(128)));

/* One streamer's buffer and what it reports; a cache line pair of its own. */
struct streamer {
    volatile uint32_t started;
    bool fault;                 /* streamfault=: the test of abandoning a streamer */
    const uint8_t *buf;
    uintptr_t len;
    uint64_t bytes, ticks;
    uint32_t sum;
} __attribute__((aligned(128)));

/* One per processor of the pool (not per place in a step): one that was
 * abandoned while still running never writes into another's. */
static struct streamer streamers[LOADED_MAX_STREAMERS];

/* A read of every 64-byte line of the buffer, pass after pass, until the
 * stop flag. */
static uintptr_t stream(uintptr_t arg)
{
    struct streamer *st = (struct streamer *)arg;
    uint64_t t0 = cpu_rdtsc_native(), n = 0;
    uint32_t sum = 0;
    if (st->fault)
        __asm__ volatile("ud2"); /* its own guard catches it; smp_wait then says lost */
    st->started = 1;
    for (uint32_t pass = 0; pass < MAX_PASSES && !shared.stop; pass++)
        for (uintptr_t off = 0; off + CHUNK <= st->len && !shared.stop; off += CHUNK) {
            const volatile uint32_t *w = (const volatile uint32_t *)(st->buf + off);
            for (unsigned k = 0; k < CHUNK / 4; k += LOADED_LINE / 4)
                sum += w[k];
            n += CHUNK;
        }
    st->ticks = cpu_rdtsc_native() - t0;
    st->bytes = n;
    st->sum = sum; /* the loads have a use */
    return 1;
}

/* n dependent loads: each address is what the previous load returned. */
static uintptr_t chase(uintptr_t at, uint32_t n)
{
    while (n--)
        at = *(const volatile uintptr_t *)at;
    return at;
}

/* LOADED_SAMPLES samples of LOADED_LOADS loads, each going on where the
 * last one stopped; the min and median per load, x100. */
static uintptr_t time_chase(uintptr_t at, struct loaded_step *st)
{
    uint64_t t[LOADED_SAMPLES];
    for (unsigned k = 0; k < LOADED_SAMPLES; k++) {
        uint64_t t0 = cpu_rdtsc_native();
        at = chase(at, LOADED_LOADS);
        t[k] = cpu_rdtsc_native() - t0;
    }
    stats_sort(t, LOADED_SAMPLES);
    st->min_x100 = u64_divmod(t[0] * 100, LOADED_LOADS, 0);
    st->median_x100 = u64_divmod(t[LOADED_SAMPLES / 2] * 100, LOADED_LOADS, 0);
    return at;
}

/* The processors that may stream: every started one but the boot
 * processor (the chaser), at most LOADED_MAX_STREAMERS. */
struct pool {
    unsigned n;
    unsigned slot[LOADED_MAX_STREAMERS];
    uint32_t apic[LOADED_MAX_STREAMERS];
    bool lost[LOADED_MAX_STREAMERS];
};

static void gather(const struct smp_info *s, struct pool *pl, uint32_t *chaser)
{
    kmemset(pl, 0, sizeof *pl);
    for (unsigned k = 0; k < s->n; k++) {
        const struct smp_cpu *c = &s->cpus[k];
        if (c->state == SMP_BSP)
            *chaser = c->apic_id;
        if (c->state != SMP_STARTED || pl->n == LOADED_MAX_STREAMERS)
            continue;
        pl->apic[pl->n] = c->apic_id;
        pl->slot[pl->n++] = k;
    }
}

bool loaded_pick(const bool *lost, unsigned n, unsigned k, unsigned *pick)
{
    unsigned got = 0;
    for (unsigned i = 0; i < n && got < k; i++)
        if (!lost[i])
            pick[got++] = i;
    return got == k;
}

static void abandon(struct pool *pl, unsigned i, struct loaded_result *out)
{
    if (pl->lost[i])
        return;
    pl->lost[i] = true;
    out->lost_apic[out->lost++] = pl->apic[i];
}

/* Posts k streamers and waits (bounded) until each has begun. */
static void start_streamers(const struct platform *p, const struct pool *pl, const unsigned *pick, unsigned k,
                            uint8_t *buffers, uintptr_t stream_bytes, bool *posted)
{
    shared.stop = 0;
    for (unsigned i = 0; i < k; i++) {
        struct streamer *st = &streamers[pick[i]];
        *st = (struct streamer){ .buf = buffers + i * stream_bytes, .len = stream_bytes,
                                 .fault = settings.streamfault && pl->apic[pick[i]] == settings.streamfault };
        posted[i] = p->smp_call(pl->slot[pick[i]], stream, (uintptr_t)st);
    }
    for (unsigned i = 0; i < k; i++)
        for (uint32_t spins = 0; posted[i] && !streamers[pick[i]].started && spins < SMP_SPIN_LIMIT; spins++)
            smp_spin_relax(spins);
}

/* Step k: the chase beside k streamers. False when fewer than k are left. */
static bool run_step(const struct platform *p, struct pool *pl, unsigned k, uint8_t *buffers,
                     struct loaded_result *out, uintptr_t *at)
{
    unsigned pick[LOADED_MAX_STREAMERS];
    bool posted[LOADED_MAX_STREAMERS];
    if (!loaded_pick(pl->lost, pl->n, k, pick))
        return false;
    struct loaded_step *st = &out->step[out->nsteps++];
    st->streamers = k;
    start_streamers(p, pl, pick, k, buffers, (uintptr_t)out->stream_bytes, posted);
    *at = time_chase(*at, st);
    shared.stop = 1;
    for (unsigned i = 0; i < k; i++) {
        st->stream[i].apic_id = pl->apic[pick[i]];
        if (!posted[i] || p->smp_wait(pl->slot[pick[i]], SMP_WAIT_MS, NULL) != SMP_DONE) {
            abandon(pl, pick[i], out);
            continue;
        }
        st->stream[i].bytes = streamers[pick[i]].bytes;
        st->stream[i].ticks = streamers[pick[i]].ticks;
    }
    return true;
}

const char *loaded_plan(const struct loaded_config *c, unsigned nstreamers, uint64_t *chain, uint64_t *stream)
{
    if (!c->llc)
        return "CPUID describes no last-level cache to size the chain from";
    *chain = (c->llc / 2) & ~(uint64_t)(LOADED_LINE - 1);
    uint64_t fixed = *chain + LOADED_LINE + CHUNK; /* the chain, its alignment, the buffers' */
    uint64_t least = fixed + (uint64_t)(nstreamers ? nstreamers : 1) * 16 * CHUNK;
    if (!c->big || c->big_size < least || least > (uintptr_t)-1)
        return bench_why("needs %u KiB of large memory (a chain of %u KiB and 64 KiB per streamer), have %u KiB",
                         (unsigned)(least >> 10), (unsigned)(*chain >> 10),
                         (unsigned)((c->big ? c->big_size : 0) >> 10));
    uint64_t share = u64_divmod(c->big_size - fixed, nstreamers ? nstreamers : 1, 0);
    *stream = (share < 2 * c->llc ? share : 2 * c->llc) & ~(uint64_t)(CHUNK - 1);
    return NULL;
}

void loaded_chase_measure(const struct platform *p, const struct smp_info *s, const struct loaded_config *c,
                          uint64_t hz, struct loaded_result *out)
{
    static struct pool pl;
    uintptr_t at;
    uint64_t chain, stream_bytes;
    kmemset(out, 0, sizeof *out);
    out->hz = hz;
    out->llc = c->llc;
    out->llc_level = c->llc_level;
    gather(s, &pl, &out->chaser_apic);
    out->skip = loaded_plan(c, pl.n, &chain, &stream_bytes);
    if (!out->skip)
        out->skip = bench_chase_build(c->big, c->big_size, chain, sizeof(uintptr_t), &at);
    if (out->skip)
        return;
    out->working_set = chain;
    out->stream_bytes = stream_bytes;
    uint8_t *buffers = (uint8_t *)((at + (uintptr_t)chain + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1));
    at = chase(at, (uint32_t)(chain / LOADED_LINE)); /* once round the cycle: the chain is in the LLC */
    for (unsigned k = 0; k <= pl.n && run_step(p, &pl, k, buffers, out, &at); k++)
        continue;
}
