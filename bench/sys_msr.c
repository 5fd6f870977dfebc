/* sys/: model-specific registers and performance counters: RDMSR of MSRs
 * that exist, WRMSR to a performance counter, RDPMC.
 *
 * The bodies execute RDMSR/WRMSR/RDPMC directly, which would #GP (or #UD)
 * where the register or instruction does not exist, so every one is proved
 * first, outside timing: a .prepare hook reads the MSR once through the
 * fault-safe path (the harness's bench_prove_rdmsr/write), writes a
 * counter back with the value it just read, or executes RDPMC once under the
 * guard (bench_prove_run), and returns a skip reason when that faults. All
 * of them need ring 0.
 *
 * Expected values: Intel Pentium reference clocks RDMSR 20-24, WRMSR 30-45
 * (https://eun.github.io/Intel-Pentium-Instruction-Set-Reference/data/rdmsr.html,
 * .../wrmsr.html; docs/references.md), stated as the middle of the range with
 * half the range as tolerance. No published modern value was found.
 *
 * Counter MSRs, only where the PMU layer knows one for the family
 * (pmu_counter0_msr): P5 CTR0 0x12; P6 and Intel architectural perfmon
 * IA32_PMC0 0xC1; AMD K7 and later PerfCtr0 0xC0010004. While the counters
 * count events, sys/wrmsr/counter writes the last general counter instead,
 * which the PMU layer keeps from them. */
#include "bench.h"

#define MSR_TSC 0x10u
#define MSR_APIC_BASE 0x1Bu

/* Reads msr once, safely; on success the body's ECX is set to it. */
static const char *prove_readable(struct bench_ctx *ctx, uint32_t msr, uint64_t *value)
{
    const char *why = bench_prove_rdmsr(msr, value);
    if (!why)
        ctx->ecx = msr;
    return why;
}

static const char *prep_read_tsc(struct bench_ctx *ctx)
{
    uint64_t v;
    return prove_readable(ctx, MSR_TSC, &v);
}

static const char *prep_read_apic_base(struct bench_ctx *ctx)
{
    uint64_t v;
    return prove_readable(ctx, MSR_APIC_BASE, &v);
}

static const char *prep_read_counter(struct bench_ctx *ctx)
{
    const char *reason = NULL;
    uint32_t msr = bench_counter0_msr(&reason);
    uint64_t v;
    return msr ? prove_readable(ctx, msr, &v) : reason;
}

/* WRMSR writes the counter with the value it held when proved: read it,
 * write the same value back (the proof), and give the body ECX = msr and
 * EDX:EAX = that value. The counter's count is disturbed, nothing else, so
 * it is one that no event of this run counts on (bench_spare_counter_msr):
 * writing a counter an event uses would make that event count nothing. */
static const char *prep_write_counter(struct bench_ctx *ctx)
{
    const char *reason = NULL;
    uint32_t msr = bench_spare_counter_msr(&reason);
    uint64_t v;
    if (!msr)
        return reason;
    if ((reason = prove_readable(ctx, msr, &v)) != NULL || (reason = bench_prove_wrmsr(msr, v)) != NULL)
        return reason;
    ctx->eax = (uint32_t)v;
    ctx->edx = (uint32_t)(v >> 32);
    return NULL;
}

/* Where RDPMC should exist it is still executed once under the fault guard
 * first (an emulator may not implement it). */
static void rdpmc_once(void *arg)
{
    uint32_t lo, hi;
    (void)arg;
    __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(0u));
}

static const char *prep_rdpmc(struct bench_ctx *ctx)
{
    const char *reason = bench_rdpmc_expected();
    if (!reason)
        reason = bench_prove_run(rdpmc_once, "RDPMC of counter 0");
    if (!reason)
        ctx->ecx = 0;
    return reason;
}

BENCH("sys/rdmsr/tsc", "RDMSR of the time-stamp counter (MSR 0x10)",
      "rdmsr",
      .ring0 = true, .needs = { FEAT_MSR }, .prepare = prep_read_tsc);

/* IA32_APIC_BASE: P6 and later (the prepare hook proves it). */
BENCH("sys/rdmsr/apic_base", "RDMSR of IA32_APIC_BASE (MSR 0x1B)",
      "rdmsr",
      .ring0 = true, .needs = { FEAT_MSR, FEAT_APIC }, .prepare = prep_read_apic_base);

BENCH("sys/rdmsr/counter", "RDMSR of performance counter 0 (P5 0x12, Intel 0xC1, AMD 0xC0010004)",
      "rdmsr",
      .ring0 = true, .needs = { FEAT_MSR }, .prepare = prep_read_counter);

BENCH("sys/wrmsr/counter", "WRMSR of a performance counter with its own value (counter 0, or one that no event of the run uses)",
      "wrmsr",
      .ring0 = true, .needs = { FEAT_MSR }, .prepare = prep_write_counter);

BENCH("sys/rdpmc", "RDPMC of counter 0 (proved under the fault guard first)",
      "rdpmc",
      .ring0 = true, .prepare = prep_rdpmc);
