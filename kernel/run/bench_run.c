/* One benchmark as the suite measures it: its context (registers, scratch
 * and large memory, its .prepare), its plan (harness/plan.h), then on each
 * processor it is measured on (on=): under the guard on the boot processor,
 * in a started processor's mailbox elsewhere; a result, a skip or a fault
 * record each. */
#include "bench_run.h"
#include "guarded_step.h"
#include "harness/bench_registry.h"
#include "harness/body_place.h"
#include "harness/count.h"
#include "harness/measure.h"
#include "harness/plan.h"
#include "harness/result.h"
#include "harness/smi.h"
#include "harness/trust.h"
#include "lib/fmt.h"
#include "on_cpus.h"
#include "options/settings.h"
#include "platform/status.h"
#include "pmu/counters.h"
#include "record/log.h"
#include "report/write.h"
#include "sampled.h"
#include "smp_phase.h"

#define SCRATCH_SIZE (64 * 1024)
static uint8_t scratch[SCRATCH_SIZE] __attribute__((aligned(4096)));

/* bench_unmet (a built-in BENCH64 body only where the platform can call
 * 64-bit code); a loaded file's 64-bit body gives the platform's reason as
 * it stands, since the file's mode is what the user chose. */
const char *bench_unmet_here(const struct platform *p, const struct bench *b, char *buf, size_t size)
{
    if (b->loaded && b->mode == 64 && !p->call64)
        return p->long_mode_why ? p->long_mode_why : "64-bit code cannot run on this platform";
    return bench_unmet(b, p->ring0, buf, size);
}

/* The large memory only for a benchmark that builds in it (.big: the chases'
 * chains, bench/mem_chase.c and bench/mem64_chase.c): hosted, asking for it
 * maps and touches up to 4 x the LLC, which cost every serve session, table
 * and snippet seconds of page faults (5 s for a 2 GiB map on a 2-core VM)
 * for bodies that never read it. */
void bench_context(const struct platform *p, const struct bench *b, struct bench_ctx *ctx)
{
    *ctx = (struct bench_ctx){ 0 };
    ctx->scratch = scratch;
    ctx->scratch_size = SCRATCH_SIZE;
    ctx->eax = 1;
    ctx->ebx = 1;
    ctx->ecx = 1;
    ctx->edx = 0;
    ctx->esi = (uint32_t)(uintptr_t)scratch;
    ctx->edi = (uint32_t)(uintptr_t)(scratch + SCRATCH_SIZE / 2);
    if (b && b->big && p->big_memory)
        p->big_memory(&ctx->big, &ctx->big_size);
}

struct guarded_measure {
    const struct bench *b;
    const struct plan *pl;
    const struct bench_ctx *ctx;
    struct measurement *m;
    struct event_counts *ec;
    bool on_boot;   /* the boot processor: the only one whose IDT takes the watchdog's interrupt */
};

static void guarded_measure(void *arg)
{
    struct guarded_measure *g = arg;
    /* Cycles are estimated unless the TSC or a counter counts them: then the
     * reference ADD chain is timed in the same sample loop. */
    const struct bench *ref = trust.cycles_exact || g->ec->cycles_index >= 0 ? NULL : &trust_reference;
    /* A loaded body is nobody's reviewed code: it may never end. */
    if (g->b->loaded && settings.watchdog && platform->watchdog && g->on_boot)
        (void)platform->watchdog(settings.watchdog);
    measure_bench_with_reference(g->b, ref, g->pl, g->ctx, g->m);
    /* ec is static: a cold or failed benchmark's counts are cleared there. */
    count_measured(&counters.drv, g->pl, g->b, g->ctx, g->m, g->ec);
}

static bool uses_fpu(const struct bench *b)
{
    for (int i = 0; i < BENCH_NEEDS_MAX && b->needs[i] != FEAT_NONE; i++)
        if (b->needs[i] == FEAT_FPU)
            return true;
    return false;
}

/* A body that broke its contract (measure.c found it after the body ran; the
 * generated epilogue had already put the caller's stack back): reported like
 * a fault, at the benchmark's function. */
static int report_damage(const struct platform *p, const char *where, const struct bench *b,
                         const struct measure_damage *d, struct fault_info *seen)
{
    struct fault_info info = { 0 };
    info.vector = d->vector;
    info.eip = (uint32_t)(uintptr_t)b->fn;
    info.expected = d->expected;
    info.seen = d->seen;
    if (p->after_fault)
        p->after_fault();
    write_fault(where, &info);
    if (seen) { /* provoked by the self-test */
        *seen = info;
        return STATUS_BENCH_FAULT;
    }
    log_note("error", "fault", "%s: %s (0x%x, expected 0x%x); it was stopped and the suite goes on",
             where, fault_name(d->vector), (unsigned)d->seen, (unsigned)d->expected);
    return STATUS_BENCH_FAULT;
}

/* The memory a mem/ benchmark walked: the large memory when its .prepare
 * said how much, else the scratch page; and the page size it is mapped with. */
static void memory_of(const struct platform *p, const struct bench_ctx *ctx, struct result *r)
{
    const char *why = "the platform does not say";
    const void *addr = ctx->working_set ? (const void *)ctx->big : (const void *)ctx->scratch;
    uint64_t len = ctx->working_set ? ctx->working_set : ctx->scratch_size;
    uint64_t page = p->page_size ? p->page_size(addr, len, &why) : 0;
    result_memory(r, ctx, page, why);
}

static int measure_on(const struct platform *p, const struct bench *b, const struct plan *pl,
                      struct bench_ctx *ctx, struct fault_info *seen, const struct on_target *t);

int bench_run(const struct platform *p, const struct bench *b, struct fault_info *seen)
{
    char why[160];
    const char *unmet = bench_unmet_here(p, b, why, sizeof why);
    if (unmet) {
        write_skip(b->name, unmet);
        return STATUS_OK;
    }
    struct bench_ctx ctx;
    bench_context(p, b, &ctx);
    if (b->prepare) {
        const char *reason = b->prepare(&ctx);
        if (reason) {
            write_skip(b->name, reason);
            return STATUS_OK;
        }
    }
    struct on_target on[SMP_MAX_CPUS];
    unsigned non = on_targets(on, SMP_MAX_CPUS);
    if (seen) /* a fault the self-test provokes is seen by the boot processor's guard */
        on[0] = (struct on_target){ ON_BOOT, on[0].apic_id, 0 }, non = 1;
    struct plan pl;
    plan_build(b, &settings, &pl);
    int worst = STATUS_OK;
    for (unsigned k = 0; k < non; k++)
        worst = status_worst(worst, measure_on(p, b, &pl, &ctx, seen, &on[k]));
    return worst;
}

/* A started processor measures in its mailbox, without counters (they are
 * programmed on the boot processor) and without the boot processor's
 * guard: its own IDT catches a fault and parks it (on_cpus.c). */
static uintptr_t measure_in_mailbox(uintptr_t arg)
{
    guarded_measure((void *)arg);
    return 1;
}

#define ON_CPU_MS 120000u /* a benchmark that takes longer on another processor is abandoned */
#define ON_CPU_SLACK_MS 1000u /* beyond watchdog=: the mailbox's round trip, on a slow emulator too */

/* How long a started processor may take: the watchdog's bound for a loaded
 * body (no interrupt reaches a started processor, so the bound is the boot
 * processor's wait: the body is abandoned there, still running), else
 * ON_CPU_MS for the suite's own reviewed bodies. */
static uint32_t elsewhere_bound(const struct bench *b)
{
    return b->loaded && settings.watchdog ? settings.watchdog + ON_CPU_SLACK_MS : ON_CPU_MS;
}

static int measure_elsewhere(const struct platform *p, struct guarded_measure *g, const char *where,
                             const struct on_target *t)
{
    uint32_t bound = elsewhere_bound(g->b);
    int w = p->smp_call && p->smp_call(t->slot, measure_in_mailbox, (uintptr_t)g)
                ? p->smp_wait(t->slot, bound, NULL) : SMP_LOST;
    if (w == SMP_DONE)
        return STATUS_OK;
    on_abandon(t->slot);
    if (w == SMP_BUSY)
        log_note("error", "fault", "%s on APIC ID %u: the processor did not finish within %u ms; it is "
                 "abandoned and the suite goes on", where, (unsigned)t->apic_id, (unsigned)bound);
    else
        log_note("error", "fault", "%s on APIC ID %u: the processor faulted; it is abandoned and the suite "
                 "goes on", where, (unsigned)t->apic_id);
    return STATUS_BENCH_FAULT;
}

static int measure_on(const struct platform *p, const struct bench *b, const struct plan *pl,
                      struct bench_ctx *ctx, struct fault_info *seen, const struct on_target *t)
{
    if (b->mode == 64 && t->slot != ON_BOOT && smp_started()->cpus[t->slot].mode != 64) {
        /* A started processor enters long mode with the boot processor
         * (bare/smp/ap.c); one that could not runs the 32-bit path only. */
        const char *why_32 = smp_started()->cpus[t->slot].why_32;
        char why[160];
        ksnprintf(why, sizeof why, "64-bit body: the processor with APIC ID %u runs the 32-bit path (%s)",
                  (unsigned)t->apic_id, why_32 ? why_32 : "it did not enter long mode");
        write_skip(b->name, why);
        return STATUS_OK;
    }
    static struct measurement m;
    static struct event_counts ec;
    plan_events(b, &ec);
    if (t->slot != ON_BOOT)
        ec = (struct event_counts){ .n = 0, .cycles_index = -1 };
    struct guarded_measure g = { b, pl, ctx, &m, &ec, t->slot == ON_BOOT };
    char where[96];
    ksnprintf(where, sizeof where, "benchmark %s", b->name);
    uint64_t smi_before = 0, smi_after = 0;
    bool smi = smi_count(&smi_before);
    int status = t->slot == ON_BOOT ? guarded_step_seen(p, where, guarded_measure, &g, STATUS_BENCH_FAULT, seen)
                                    : measure_elsewhere(p, &g, where, t);
    if (b->loaded && p->watchdog)
        (void)p->watchdog(0); /* also after a fault: disarmed in every case */
    m.smi_known = smi && smi_count(&smi_after);
    m.smis = m.smi_known ? (smi_after - smi_before) & 0xffffffffu : 0;
    if (status)
        return status;
    if (m.damage.vector)
        return report_damage(p, where, b, &m.damage, seen);
    if (uses_fpu(b) && p->after_fault) /* leave the x87 stack empty for the next one */
        p->after_fault();
    if (m.failed) {
        write_skip(b->name, m.failed);
        return STATUS_OK;
    }
    static struct result r;
    result_compute(b, &m, &ec, &r);
    memory_of(p, ctx, &r);
    r.aligned = body_place_alignment(&r.align_offset);
    r.on_cpu = on_names_cpu(); /* on=, or the hybrid default (on_cpus.c) */
    r.cpu = t->apic_id;
    r.core_type = t->core_type;
    write_result(&r);
    if (r.estimate_disagrees)
        log_note("warn", "aperf", "%s: the ADD-chain cycle estimate differs from APERF's count by more "
                 "than 2 %%", b->name);
    /* Sampled after its time was taken, so that time is the one a run without sample= takes. */
    if (t->slot == ON_BOOT && !seen && (settings.sample[0] || settings.cycles))
        return sampled_bench(p, b, pl, ctx);
    return STATUS_OK;
}

