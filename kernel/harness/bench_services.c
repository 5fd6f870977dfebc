/* The harness's services to .prepare hooks (bench_services.h). */
#include <stdarg.h>
#include "platform/platform.h"
#include "bench.h"
#include "lib/fmt.h"
#include "platform/fault.h"
#include "platform/guard.h"
#include "platform/msr.h"
#include "pmu/counters.h"
#include "pmu/pmu.h"

static char why[160];

const char *bench_why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return why;
}

static const char *access_failure(const char *what, uint32_t msr, int err)
{
    if (err == MSR_ERR_NOT_RING0)
        return bench_why("%s MSR 0x%x: not in ring 0 here", what, (unsigned)msr);
    return bench_why("%s MSR 0x%x faults on this CPU (%s)", what, (unsigned)msr,
                     FAULT_IS(err) ? fault_name(FAULT_VECTOR(err)) : "refused");
}

const char *bench_prove_rdmsr(uint32_t msr, uint64_t *value)
{
    int err = msr_read(platform->msr, msr, value);
    return err ? access_failure("reading", msr, err) : NULL;
}

const char *bench_prove_wrmsr(uint32_t msr, uint64_t value)
{
    int err = msr_write(platform->msr, msr, value);
    return err ? access_failure("writing", msr, err) : NULL;
}

const char *bench_prove_run(void (*fn)(void *), const char *what)
{
    struct fault_info info;
    int err = guard_run(fn, NULL, &info);
    return err ? bench_why("%s faults here (%s)", what, fault_name(FAULT_VECTOR(err))) : NULL;
}

uint32_t bench_counter0_msr(const char **reason)
{
    uint32_t msr = pmu_counter0_msr(cpu);
    if (!msr)
        *reason = bench_why("no performance-counter MSR known for this CPU (%s family %u)",
                            cpu_vendor_name(cpu->vendor), cpu->family);
    return msr;
}

uint32_t bench_spare_counter_msr(const char **reason)
{
    if (!counters.active)
        return bench_counter0_msr(reason);
    const char *none = NULL;
    uint32_t msr = counters_hold_spare(&none);
    if (!msr)
        *reason = none ? none : bench_why("no MSR known for the %s driver's last counter", counters.drv.name);
    return msr;
}

const char *bench_rdpmc_expected(void)
{
    if (pmu_has_rdpmc(cpu))
        return NULL;
    return bench_why("needs RDPMC (Pentium MMX, Pentium Pro, K7 or later; this is %s family %u)",
                     cpu_vendor_name(cpu->vendor), cpu->family);
}

uint64_t bench_llc_bytes(unsigned *level)
{
    uint64_t best = 0;
    *level = 0;
    for (unsigned i = 0; i < cpu->ncaches; i++) {
        const struct cache_desc *c = &cpu->caches[i];
        if ((c->kind == CACHE_DATA || c->kind == CACHE_UNIFIED) &&
            (c->level > *level || (c->level == *level && c->size > best))) {
            best = c->size;
            *level = c->level;
        }
    }
    return best;
}

/* xorshift32 (Marsaglia, "Xorshift RNGs", J. Stat. Software 8(14), 2003):
 * small, deterministic, good enough to hide the order from prefetchers. */
static uint32_t chase_next(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static uint32_t *chase_slot(uintptr_t base, uint32_t line)
{
    return (uint32_t *)(base + (uintptr_t)line * BENCH_CHASE_LINE);
}

const char *bench_chase_build(uint8_t *big, uint64_t big_size, uint64_t bytes, unsigned ptr_bytes,
                              uintptr_t *start)
{
    if (!big || big_size < bytes + BENCH_CHASE_LINE)
        return bench_why("needs %u KiB of large memory for the chain, have %u KiB", (unsigned)(bytes >> 10),
                         (unsigned)((big ? big_size : 0) >> 10));
    if ((ptr_bytes != 4 && ptr_bytes != 8) || bytes / BENCH_CHASE_LINE > 0xFFFFFFFFu)
        return bench_why("chain of %u-byte pointers over %u MiB not supported", ptr_bytes,
                         (unsigned)(bytes >> 20));
    uintptr_t base = ((uintptr_t)big + BENCH_CHASE_LINE - 1) & ~(uintptr_t)(BENCH_CHASE_LINE - 1);
    uint32_t lines = (uint32_t)(bytes / BENCH_CHASE_LINE), rng = 0x9e3779b9u;
    /* The slots first hold line numbers (32 bits, either width): a Sattolo
     * shuffle of 0..n-1 yields a permutation that is one cycle through all n
     * lines. Then each slot becomes the address of its successor. */
    for (uint32_t k = 0; k < lines; k++)
        *chase_slot(base, k) = k;
    for (uint32_t i = lines - 1; i > 0; i--) {
        uint32_t j = chase_next(&rng) % i;
        uint32_t t = *chase_slot(base, i);
        *chase_slot(base, i) = *chase_slot(base, j);
        *chase_slot(base, j) = t;
    }
    for (uint32_t k = 0; k < lines; k++) {
        uintptr_t next = (uintptr_t)chase_slot(base, *chase_slot(base, k));
        if (ptr_bytes == 8)
            *(uint64_t *)chase_slot(base, k) = (uint64_t)next;
        else
            *chase_slot(base, k) = (uint32_t)next;
    }
    *start = base;
    return NULL;
}

#define CHASE_UNKNOWN_LLC_MAX (256ull << 20)

const char *bench_chase_llc_size(struct bench_ctx *ctx, uint64_t max_bytes, uint64_t *bytes)
{
    unsigned level;
    uint64_t llc = bench_llc_bytes(&level);
    uint64_t want = llc ? 4 * llc : CHASE_UNKNOWN_LLC_MAX;
    uint64_t fits = ctx->big && ctx->big_size > 2 * BENCH_CHASE_LINE ? ctx->big_size - BENCH_CHASE_LINE : 0;
    if (fits > max_bytes)
        fits = max_bytes;
    *bytes = (want < fits ? want : fits) & ~(uint64_t)(BENCH_CHASE_LINE - 1);
    if (*bytes < 1024)
        return bench_why("needs large memory for the chain (4 x LLC = %u KiB), have %u KiB",
                         (unsigned)(want >> 10), (unsigned)((ctx->big ? ctx->big_size : 0) >> 10));
    ctx->llc = llc;
    return NULL;
}
