/* One benchmark, measured as the README's "How a benchmark is measured"
 * says: warm-up, S samples of the body unrolled 0, U and 2U times inside L
 * loop iterations, overhead removed by the n-versus-2n difference and
 * cross-checked against the empty body. */
#include "clock/aperf.h"
#include "clock/warmup.h"
#include "measure.h"
#include "body_place.h"
#include "plan.h"
#include "timer.h"
#include "platform/fault.h"
#include "platform/platform.h"

#include <stddef.h>

_Static_assert(APERF_SAMPLES_MAX >= MEASURE_SAMPLES_MAX, "the real clock keeps every sample");

static uint64_t t_empty[MEASURE_SAMPLES_MAX], t_u[MEASURE_SAMPLES_MAX], t_2u[MEASURE_SAMPLES_MAX];
static uint64_t ref_u[MEASURE_SAMPLES_MAX], ref_2u[MEASURE_SAMPLES_MAX];
static uint64_t diffs[MEASURE_SAMPLES_MAX], scratch[MEASURE_SAMPLES_MAX];

int32_t bench_copy_size(const struct bench *b)
{
    uint32_t total = (uint32_t)(b->copies_end - b->copies);
    return total % CK_MAX_COPIES ? -1 : (int32_t)(total / CK_MAX_COPIES);
}

/* The stack every body runs on (bench_asm.h switches to it): 16 KiB, the
 * lowest 2 KiB of it filled with a pattern that must still be there after
 * the measurement. A body's pushes land here, never on the kernel's stack.
 * Below it one page the harness never touches: a platform with paging can
 * make it not present (measure_stack_guard_page), so that a body running
 * away with the stack faults there instead of writing over the kernel. */
#define PAGE_WORDS 1024u
#define STACK_WORDS 4096u
#define GUARD_WORDS 512u
#define GUARD_PATTERN 0x57ac6ad5u
static uint32_t stack_area[PAGE_WORDS + STACK_WORDS] __attribute__((aligned(4096)));
static uint32_t *const bench_stack = stack_area + PAGE_WORDS;

uintptr_t measure_stack_guard_page(void)
{
    return (uintptr_t)stack_area;
}

/* The first broken contract seen in this measurement (vector 0: none). */
static struct measure_damage damage;

static void broke(uint32_t vector, uint32_t expected, uint32_t seen)
{
    if (!damage.vector)
        damage = (struct measure_damage){ vector, expected, seen };
}

static uint32_t stack_top(void) { return (uint32_t)(uintptr_t)(bench_stack + STACK_WORDS); }

/* Every run must end with the ESP it started with. */
static bool esp_check(void)
{
    if (ck_timing.end_esp == ck_timing.stack_top)
        return true;
    broke(VEC_BODY_ESP, ck_timing.stack_top, ck_timing.end_esp);
    return false;
}

static void guard_arm(void)
{
    for (uint32_t i = 0; i < GUARD_WORDS; i++)
        bench_stack[i] = GUARD_PATTERN;
}

static void guard_check(void)
{
    for (uint32_t i = 0; i < GUARD_WORDS; i++)
        if (bench_stack[i] != GUARD_PATTERN) {
            /* seen: the lowest address written, over the stack's bottom */
            broke(VEC_BODY_STACK, (uint32_t)(uintptr_t)(bench_stack + GUARD_WORDS),
                  (uint32_t)(uintptr_t)(bench_stack + i));
            return;
        }
}

/* One copy of the body outside timing (probe.S): it must leave ESP and the
 * loop counter EBP as it found them. The hooks the generated function jumps
 * to instead of the copies, and where they come back. */
extern const uint8_t ck_probe_hook[], ck_probe_exit[];
/* The same for a 64-bit body (probe64.S), called through call64. */
extern const uint8_t ck_probe64_hook[], ck_probe64_exit[];

/* A 64-bit body's generated function is long-mode code: the platform runs
 * it (bare metal: through a 64-bit code segment; the 64-bit hosted runner:
 * a direct call). bench_unmet skips such a body where call64 is NULL. */
static void call_fn(const struct bench *b)
{
    if (b->mode == 64)
        (void)platform->call64((uintptr_t)b->fn, 0);
    else
        b->fn();
}

static void probe(const struct bench *b, uint32_t size)
{
    /* The generated function itself, as every timed run calls it: the
     * prologue loads the registers, the setup or init code runs (a
     * VPGATHERDD's index vector, a pointer the init built), then the hook
     * enters one copy with every register the init left (the register
     * contract, docs/registers.md). Its loop count is CK_PROBE_EBP, which
     * the probe expects back less one. */
    ck_timing.stack_top = stack_top();
    ck_timing.read_mode = timer.mode;
    ck_timing.loops = CK_PROBE_EBP;
    ck_timing.probe_ebp = 0;
    ck_timing.probe_copy = (uintptr_t)body_place_probe(b, size);
#ifdef __x86_64__ /* no 32-bit body exists in the x86_64 builds (hosted64, host tests) */
    ck_timing.entry = (uintptr_t)ck_probe64_hook;
#else
    ck_timing.entry = (uintptr_t)(b->mode == 64 ? ck_probe64_hook : ck_probe_hook);
#endif
    call_fn(b);
    if (esp_check() && ck_timing.probe_ebp != CK_PROBE_EBP - 1)
        broke(VEC_BODY_EBP, CK_PROBE_EBP - 1, ck_timing.probe_ebp);
    guard_check();
}

static uint64_t run_copies(const struct bench *b, uint32_t copies, uint32_t size)
{
    ck_timing.stack_top = stack_top();
    ck_timing.read_mode = timer.mode;
    ck_timing.entry = (uintptr_t)body_place_entry(b, copies, size); /* at its alignment (body_place.h) */
    call_fn(b);
    (void)esp_check();
    if (b->carry) { /* the next run goes on where this one stopped (a long pointer chain) */
        ck_timing.regs[4] = ck_timing.carry_esi;
        if (b->mode == 64) /* all of RSI: the chain may lie above 4 GiB */
            ck_timing.rsi_hi = ck_timing.carry_rsi_hi;
    }
    return timer_elapsed(ck_timing.t0, ck_timing.t1);
}

static void load_registers(const struct bench_ctx *ctx)
{
    ck_timing.regs[0] = ctx->eax;
    ck_timing.regs[1] = ctx->ebx;
    ck_timing.regs[2] = ctx->ecx;
    ck_timing.regs[3] = ctx->edx;
    ck_timing.regs[4] = ctx->esi;
    ck_timing.regs[5] = ctx->edi;
    ck_timing.rsi_hi = ctx->rsi_hi;
}

static int64_t per_iter(uint64_t x100, uint64_t iters) { return (int64_t)stats_div_round(x100, iters); }

/* |a - b| within 0.10 or 5 % of the larger: the two ways of removing the
 * overhead must tell the same story. */
static bool close_enough(int64_t a, int64_t b)
{
    int64_t d = a > b ? a - b : b - a;
    int64_t big = a > b ? a : b;
    if (big < 0)
        big = -big;
    return d <= 10 || d * 100 <= big * 5;
}

static void take_samples(const struct bench *b, const struct bench *ref, const struct plan *pl,
                         uint32_t size, uint32_t ref_size, uint32_t n)
{
    uint32_t u = pl->unroll;
    for (uint32_t w = 0; w < pl->warmup; w++) {
        run_copies(b, 0, size);
        run_copies(b, u, size);
        run_copies(b, 2 * u, size);
        if (ref) {
            run_copies(ref, u, ref_size);
            run_copies(ref, 2 * u, ref_size);
        }
    }
    aperf_start();
    /* Interleaved, so a slow drift (the core's clock) affects all alike. */
    for (uint32_t s = 0; s < n && !damage.vector; s++) {
        t_empty[s] = run_copies(b, 0, size);
        aperf_before(); /* the real clock around U and 2U (aperf.c says why) */
        t_u[s] = run_copies(b, u, size);
        aperf_after(s, 0);
        aperf_before();
        t_2u[s] = run_copies(b, 2 * u, size);
        aperf_after(s, 1);
        if (ref) {
            ref_u[s] = run_copies(ref, u, ref_size);
            ref_2u[s] = run_copies(ref, 2 * u, ref_size);
        }
    }
}

static uint64_t median_of_differences(const uint64_t *a, const uint64_t *b, uint32_t n)
{
    for (uint32_t s = 0; s < n; s++)
        diffs[s] = b[s] > a[s] ? b[s] - a[s] : 0;
    struct stats st;
    stats_compute(diffs, n, scratch, &st);
    return st.median_x100;
}

bool measure_ref_cycles_x100(const struct measurement *m, int64_t *cycles_x100)
{
    if (!m->ref_median_x100)
        return false;
    *cycles_x100 = (int64_t)stats_div_round(m->diff.median_x100 * 100, m->ref_median_x100);
    return true;
}

static bool ensembles_agree(uint32_t n, uint64_t iters)
{
    struct stats parts[MEASURE_ENSEMBLES];
    uint32_t each = n / MEASURE_ENSEMBLES;
    if (each < 3)
        return true; /* too few samples to judge */
    for (uint32_t k = 0; k < MEASURE_ENSEMBLES; k++)
        stats_compute(diffs + k * each, each, scratch, &parts[k]);
    /* Per body: within 0.05 ticks (so a true zero is stable) or 2 %. */
    struct stats_tolerance tol = STATS_TOLERANCE_DEFAULT;
    tol.abs_tol_x100 = 5 * iters;
    struct stats_stability st;
    stats_stable(parts, MEASURE_ENSEMBLES, &tol, &st);
    return st.agree;
}

static void analyse(struct measurement *m, uint32_t n, uint64_t iters)
{
    m->negative = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (t_2u[s] >= t_u[s]) {
            diffs[s] = t_2u[s] - t_u[s];
        } else {
            diffs[s] = 0;
            m->negative++;
        }
    }
    m->stable = ensembles_agree(n, iters);
    stats_compute(diffs, n, scratch, &m->diff);
    m->value_x100 = per_iter(m->diff.median_x100, iters);
    m->min_x100 = per_iter(m->diff.min * 100, iters);
    /* Cross-check: the body against the empty body, same loop, same reads. */
    m->empty_x100 = per_iter(median_of_differences(t_empty, t_u, n), iters);
    m->methods_agree = close_enough(m->value_x100, m->empty_x100);
}

static void measure_cold(const struct bench *b, uint32_t size, struct measurement *m)
{
    /* The first execution of U copies in one loop iteration, less the warm
     * empty body (its minimum over a few runs). */
    ck_timing.loops = 1;
    uint64_t first = run_copies(b, m->unroll, size);
    uint64_t empty = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t t = run_copies(b, 0, size);
        if (t < empty)
            empty = t;
    }
    t_u[0] = first;
    t_empty[0] = empty;
    t_2u[0] = 0;
    diffs[0] = first > empty ? first - empty : 0;
    stats_compute(diffs, 1, scratch, &m->diff);
    m->samples = 1;
    m->value_x100 = m->min_x100 = m->empty_x100 = per_iter(diffs[0] * 100, m->unroll);
    m->methods_agree = m->stable = true;
    m->aperf.why = "a cold measurement has one sample and no U/2U difference";
}

void measure_run_copies(const struct bench *b, const struct bench_ctx *ctx, uint32_t loops,
                        uint32_t copies)
{
    int32_t size = bench_copy_size(b);
    if (size < 0 || (b->mode == 64 && !platform->call64))
        return;
    load_registers(ctx);
    body_place_running(b, (uint32_t)size);
    ck_timing.loops = loops;
    run_copies(b, copies, (uint32_t)size);
}

/* With the PIT (838 ns a tick, 16 bits) a sample must be long enough to
 * resolve and short enough not to wrap (55 ms): grow L until t(U) spans
 * about 600 PIT ticks. */
#define PIT_TARGET_TICKS (600u * PIT_SCALE)
#define PIT_LOOPS_MAX 1000000u

static uint32_t pit_loops(const struct bench *b, uint32_t unroll, uint32_t size, uint32_t loops)
{
    for (;;) {
        ck_timing.loops = loops;
        uint64_t t = run_copies(b, unroll, size);
        if (t >= PIT_TARGET_TICKS || loops >= PIT_LOOPS_MAX)
            return loops;
        uint64_t grow = t ? PIT_TARGET_TICKS / t + 1 : 16;
        loops = grow * loops > PIT_LOOPS_MAX ? PIT_LOOPS_MAX : (uint32_t)(grow * loops);
    }
}

/* An AVX body runs until its throughput settles (clock/warmup.h): runs of
 * 2U copies, as the samples will take them. */
static void warm_avx(const struct bench *b, uint32_t size, struct measurement *m)
{
    struct warmup w;
    warmup_begin(&w, timer.mode == READ_PIT ? 0 : timer.hz);
    while (!damage.vector && !warmup_step(&w, run_copies(b, 2 * m->unroll, size)))
        ;
    m->avx_warmup = true;
    m->warmups = w.runs;
    m->warmup_settled = w.settled;
}

void measure_bench(const struct bench *b, const struct plan *pl, const struct bench_ctx *ctx,
                   struct measurement *m)
{
    measure_bench_with_reference(b, NULL, pl, ctx, m);
}

void measure_bench_with_reference(const struct bench *b, const struct bench *ref,
                                  const struct plan *pl, const struct bench_ctx *ctx,
                                  struct measurement *m)
{
    *m = (struct measurement){ 0 };
    m->unroll = pl->unroll;
    m->loops = pl->loops;
    m->samples = pl->samples;
    m->cold = pl->cold;
    m->t_empty = t_empty;
    m->t_u = t_u;
    m->t_2u = t_2u;
    int32_t copy = bench_copy_size(b);
    uint32_t size = copy < 0 ? 0 : (uint32_t)copy;
    if (copy < 0) {
        m->failed = "the unrolled copies differ in size (alignment directive in the body?)";
        return;
    }
    if (b->mode == 64 && !platform->call64) {
        m->failed = "a 64-bit body, and this platform runs no 64-bit code";
        return;
    }
    if (m->unroll == 0 || 2 * m->unroll > CK_MAX_COPIES) {
        m->failed = "unroll must be 1..32";
        return;
    }
    load_registers(ctx);
    body_place_running(b, size); /* a fault's report names the copy and the byte (body_place.h) */
    damage = (struct measure_damage){ 0 };
    guard_arm();
    if (m->cold) { /* no probe: the first execution is the one measured */
        measure_cold(b, size, m);
        guard_check();
        m->damage = damage;
        return;
    }
    probe(b, size);
    if (damage.vector) {
        m->damage = damage;
        return;
    }
    if (timer.mode == READ_PIT && !pl->loops_declared)
        m->loops = pit_loops(b, m->unroll, size, m->loops);
    ck_timing.loops = m->loops;
    if (warmup_wanted(b->needs, BENCH_NEEDS_MAX))
        warm_avx(b, size, m);
    uint64_t iters = (uint64_t)m->unroll * m->loops;
    int32_t ref_copy = ref ? bench_copy_size(ref) : -1;
    if (ref_copy < 0 || ref == b || b->reference)
        ref = NULL;
    for (;;) {
        take_samples(b, ref, pl, size, ref ? (uint32_t)ref_copy : 0, m->samples);
        if (ref)
            m->ref_median_x100 = median_of_differences(ref_u, ref_2u, m->samples);
        analyse(m, m->samples, iters);
        aperf_finish(m->samples, iters, timer.mode == READ_PIT ? 0 : timer.hz, &m->aperf);
        if (m->stable || m->reruns == 1 || damage.vector)
            break;
        m->reruns++;
    }
    guard_check();
    m->damage = damage;
}
