/* The harness's services to .prepare hooks (bench_services.h). */
#include <stdarg.h>
#include "platform/platform.h"
#include "bench.h"
#include "lib/fmt.h"
#include "platform/fault.h"
#include "platform/guard.h"
#include "platform/msr.h"
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
