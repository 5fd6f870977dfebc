/* sys/: model-specific registers and performance counters: RDMSR of MSRs
 * that exist, WRMSR to a performance counter, RDPMC.
 *
 * The bodies execute RDMSR/WRMSR/RDPMC directly, which would #GP (or #UD)
 * where the register or instruction does not exist, so every one is proved
 * first, outside timing: a .prepare hook reads the MSR once through the
 * fault-safe platform_msr (kernel/msr.h), writes a counter back with the
 * value it just read, or executes RDPMC once under guard_run(), and returns
 * a skip reason when that faults. All of them need ring 0.
 *
 * Expected values: Intel Pentium reference clocks RDMSR 20-24, WRMSR 30-45
 * (https://eun.github.io/Intel-Pentium-Instruction-Set-Reference/data/rdmsr.html,
 * .../wrmsr.html; quoted in ../shared/reference/p5-timing.md), stated as the
 * middle of the range with half the range as tolerance. No published modern
 * value was found (modern-latency.md: "RDMSR ... no published modern number").
 *
 * Counter MSRs, only where one is known for the family (DESIGN.md,
 * "Performance counters"): P5 CTR0 0x12; P6 and Intel architectural
 * perfmon IA32_PMC0 0xC1; AMD K7 and later PerfCtr0 0xC0010004. */
#include "bench.h"
#include "platform/fault.h"
#include "lib/fmt.h"
#include "platform/guard.h"
#include "platform/msr.h"

#define MSR_TSC 0x10u
#define MSR_APIC_BASE 0x1Bu
#define MSR_P5_CTR0 0x12u
#define MSR_IA32_PMC0 0xC1u
#define MSR_AMD_PERFCTR0 0xC0010004u

static char why[128];

static const char *access_failure(const char *what, uint32_t msr, int err)
{
    if (err == MSR_ERR_NOT_RING0)
        ksnprintf(why, sizeof why, "%s MSR 0x%x: not in ring 0 here", what, (unsigned)msr);
    else
        ksnprintf(why, sizeof why, "%s MSR 0x%x faults on this CPU (%s)", what, (unsigned)msr,
                  FAULT_IS(err) ? fault_name(FAULT_VECTOR(err)) : "refused");
    return why;
}

/* Reads msr once, safely; on success the body's ECX is set to it. */
static const char *prove_readable(struct bench_ctx *ctx, uint32_t msr, uint64_t *value)
{
    int err = msr_read(platform_msr, msr, value);
    if (err)
        return access_failure("reading", msr, err);
    ctx->ecx = msr;
    return NULL;
}

/* The counter MSR known for this CPU family, or 0 with *reason set. */
static uint32_t counter_msr(const char **reason)
{
    if (cpu->vendor == VENDOR_INTEL && cpu->family == 5)
        return MSR_P5_CTR0;
    if (cpu->vendor == VENDOR_INTEL && (cpu->family == 6 || cpu->perfmon.version >= 1))
        return MSR_IA32_PMC0;
    if (cpu->vendor == VENDOR_AMD && cpu->family >= 6)
        return MSR_AMD_PERFCTR0;
    ksnprintf(why, sizeof why, "no performance-counter MSR known for this CPU (%s family %u)",
              cpu_vendor_name(cpu->vendor), cpu->family);
    *reason = why;
    return 0;
}

static const char *prep_rdmsr_tsc(struct bench_ctx *ctx)
{
    uint64_t v;
    return prove_readable(ctx, MSR_TSC, &v);
}

static const char *prep_rdmsr_apic_base(struct bench_ctx *ctx)
{
    uint64_t v;
    return prove_readable(ctx, MSR_APIC_BASE, &v);
}

static const char *prep_rdmsr_counter(struct bench_ctx *ctx)
{
    const char *reason = NULL;
    uint32_t msr = counter_msr(&reason);
    uint64_t v;
    return msr ? prove_readable(ctx, msr, &v) : reason;
}

/* WRMSR writes the counter with the value it held when proved: read it,
 * write the same value back (the proof), and give the body ECX = msr and
 * EDX:EAX = that value. The counter's count is disturbed, nothing else. */
static const char *prep_wrmsr_counter(struct bench_ctx *ctx)
{
    const char *reason = NULL;
    uint32_t msr = counter_msr(&reason);
    if (!msr)
        return reason;
    uint64_t v;
    const char *r = prove_readable(ctx, msr, &v);
    if (r)
        return r;
    int err = msr_write(platform_msr, msr, v);
    if (err)
        return access_failure("writing", msr, err);
    ctx->eax = (uint32_t)v;
    ctx->edx = (uint32_t)(v >> 32);
    return NULL;
}

/* RDPMC arrived with the Pentium MMX and the Pentium Pro (SDM vol. 3A
 * §2.6.6, quoted in p5-timing.md); AMD has it from the K7. Where it should
 * exist it is still executed once under the fault guard first (an emulator
 * may not implement it). */
static void rdpmc_once(void *arg)
{
    uint32_t lo, hi;
    (void)arg;
    __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(0u));
}

static const char *prep_rdpmc(struct bench_ctx *ctx)
{
    bool expected = (cpu->vendor == VENDOR_INTEL &&
                     ((cpu->family == 5 && cpu_has(cpu, FEAT_MMX)) || cpu->family >= 6)) ||
                    (cpu->vendor == VENDOR_AMD && cpu->family >= 6);
    if (!expected) {
        ksnprintf(why, sizeof why, "needs RDPMC (Pentium MMX, Pentium Pro, K7 or later; this is %s family %u)",
                  cpu_vendor_name(cpu->vendor), cpu->family);
        return why;
    }
    struct fault_info info;
    int err = guard_run(rdpmc_once, NULL, &info);
    if (err) {
        ksnprintf(why, sizeof why, "RDPMC of counter 0 faults here (%s)", fault_name(FAULT_VECTOR(err)));
        return why;
    }
    ctx->ecx = 0;
    return NULL;
}

/* Intel reference: RDMSR 20-24 clocks on the Pentium. */
BENCH("sys/rdmsr/tsc", "RDMSR of the time-stamp counter (MSR 0x10)",
      "rdmsr",
      .ring0 = true, .needs = { FEAT_MSR }, .prepare = prep_rdmsr_tsc,
      .expect = { P5(22.00, 2.00) });

/* IA32_APIC_BASE: P6 and later (the prepare hook proves it). */
BENCH("sys/rdmsr/apic_base", "RDMSR of IA32_APIC_BASE (MSR 0x1B)",
      "rdmsr",
      .ring0 = true, .needs = { FEAT_MSR, FEAT_APIC }, .prepare = prep_rdmsr_apic_base);

BENCH("sys/rdmsr/counter", "RDMSR of performance counter 0 (P5 0x12, Intel 0xC1, AMD 0xC0010004)",
      "rdmsr",
      .ring0 = true, .needs = { FEAT_MSR }, .prepare = prep_rdmsr_counter,
      .expect = { P5(22.00, 2.00) });

/* Intel reference: WRMSR 30-45 clocks on the Pentium. */
BENCH("sys/wrmsr/counter", "WRMSR of performance counter 0 with its own value (P5 0x12, Intel 0xC1, AMD 0xC0010004)",
      "wrmsr",
      .ring0 = true, .needs = { FEAT_MSR }, .prepare = prep_wrmsr_counter,
      .expect = { P5(37.50, 7.50) });

BENCH("sys/rdpmc", "RDPMC of counter 0 (proved under the fault guard first)",
      "rdpmc",
      .ring0 = true, .prepare = prep_rdpmc);
