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
#include "stats/stats_wide.h"
#include "platform/fault.h"
#include "platform/platform.h"

#include <stddef.h>

_Static_assert(APERF_SAMPLES_MAX >= MEASURE_SAMPLES_MAX, "the real clock keeps every sample");

static uint64_t t_empty[MEASURE_SAMPLES_MAX], t_u[MEASURE_SAMPLES_MAX], t_2u[MEASURE_SAMPLES_MAX];
static uint64_t t_4u[MEASURE_SAMPLES_MAX / MEASURE_4U_EVERY + 1];
static uint64_t ref_u[MEASURE_SAMPLES_MAX], ref_2u[MEASURE_SAMPLES_MAX];
static uint64_t diffs[MEASURE_SAMPLES_MAX], prior[MEASURE_SAMPLES_MAX];
static uint64_t scratch[2 * MEASURE_SAMPLES_MAX]; /* judge.c: both runs' differences */

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

static uint64_t run_at(const struct bench *b, const uint8_t *entry)
{
    ck_timing.stack_top = stack_top();
    ck_timing.read_mode = timer.mode;
    ck_timing.entry = (uintptr_t)entry;
    call_fn(b);
    (void)esp_check();
    if (b->carry) { /* the next run goes on where this one stopped (a long pointer chain) */
        ck_timing.regs[4] = ck_timing.carry_esi;
        if (b->mode == 64) /* all of RSI: the chain may lie above 4 GiB */
            ck_timing.rsi_hi = ck_timing.carry_rsi_hi;
    }
    return timer_elapsed(ck_timing.t0, ck_timing.t1);
}

static uint64_t run_copies(const struct bench *b, uint32_t copies, uint32_t size)
{
    return run_at(b, body_place_entry(b, copies, size)); /* at its alignment (body_place.h) */
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

/* The thread's context switches (platform->context_switches, NULL on bare
 * metal) between one sample's end and the next's: a sample that saw one
 * waited for the CPU inside its timed runs. */
static uint32_t switched;
static bool switches_known;
static bool switched_at[MEASURE_SAMPLES_MAX]; /* per sample, for a judgement that drops them */

static void switches_next(uint32_t s, uint64_t *last)
{
    uint64_t now;
    switched_at[s] = false;
    if (!switches_known)
        return;
    if (!platform->context_switches(&now)) {
        switches_known = false;
        return;
    }
    switched_at[s] = now != *last;
    switched += switched_at[s];
    *last = now;
}

/* The reference's runs: MEASURE_REF_UNROLL and twice as many copies in
 * ref_loops iterations, whatever the body's U and L. */
static void reference_pair(const struct bench *ref, uint32_t ref_size, uint32_t ref_loops, uint32_t s)
{
    uint32_t loops = ck_timing.loops;
    ck_timing.loops = ref_loops;
    uint64_t u = run_copies(ref, MEASURE_REF_UNROLL, ref_size);
    uint64_t u2 = run_copies(ref, 2 * MEASURE_REF_UNROLL, ref_size);
    if (s < MEASURE_SAMPLES_MAX) {
        ref_u[s] = u;
        ref_2u[s] = u2;
    }
    ck_timing.loops = loops;
}

struct sampling {
    const struct bench *b, *ref;
    uint32_t size, ref_size, ref_loops;
    bool four;                    /* 4U copies fit: t(4U) on every MEASURE_4U_EVERY-th sample */
};

static void take_samples(const struct sampling *sp, const struct plan *pl, uint32_t n)
{
    const struct bench *b = sp->b;
    uint32_t u = pl->unroll, size = sp->size;
    uint64_t switches = 0;
    for (uint32_t w = 0; w < pl->warmup; w++) {
        run_copies(b, 0, size);
        run_copies(b, u, size);
        run_copies(b, 2 * u, size);
        if (sp->four)
            run_copies(b, 4 * u, size);
        if (sp->ref)
            reference_pair(sp->ref, sp->ref_size, sp->ref_loops, MEASURE_SAMPLES_MAX);
    }
    aperf_start();
    switched = 0;
    switches_known = platform && platform->context_switches && platform->context_switches(&switches);
    /* Interleaved, so a slow drift (the core's clock) affects all alike. */
    for (uint32_t s = 0; s < n && !damage.vector; s++) {
        t_empty[s] = run_copies(b, 0, size);
        aperf_before(); /* the real clock around U and 2U (aperf.c says why) */
        t_u[s] = run_copies(b, u, size);
        aperf_after(s, 0);
        aperf_before();
        t_2u[s] = run_copies(b, 2 * u, size);
        aperf_after(s, 1);
        if (sp->four && s % MEASURE_4U_EVERY == 0)
            t_4u[s / MEASURE_4U_EVERY] = run_copies(b, 4 * u, size);
        if (sp->ref)
            reference_pair(sp->ref, sp->ref_size, sp->ref_loops, s);
        switches_next(s, &switches);
    }
}

/* Median of b - a (clamped at 0), x100; in scratch, so the body's
 * differences in diffs[] stay for the judgement. */
static uint64_t median_of_differences(const uint64_t *a, const uint64_t *b, uint32_t n)
{
    for (uint32_t s = 0; s < n; s++)
        scratch[s] = b[s] > a[s] ? b[s] - a[s] : 0;
    struct stats st;
    stats_compute(scratch, n, scratch, &st);
    return st.median_x100;
}

/* Cycles per body = (ticks per body) / (ticks per ADD): the two medians
 * over their own counts of bodies, divided exactly (stats_wide.h). */
bool measure_ref_cycles_x100(const struct measurement *m, int64_t *cycles_x100)
{
    uint64_t iters = (uint64_t)m->unroll * m->loops;
    if (!m->ref_median_x100 || !m->ref_iters || !iters)
        return false;
    struct wide num = wide_mul_u32(wide_mul_u64(m->diff.median_x100, m->ref_iters), 100);
    struct wide den = wide_mul_u64(m->ref_median_x100, iters);
    if (!wide_fits_u64(den)) { /* scale both down alike: the ratio keeps its first 64 bits */
        unsigned drop = wide_bit_length(den) - 64;
        num = wide_shr(num, drop);
        den = wide_shr(den, drop);
    }
    uint64_t q = wide_to_u64_sat(wide_div_round_u64(num, wide_to_u64_sat(den, NULL)), NULL);
    *cycles_x100 = q > INT64_MAX ? INT64_MAX : (int64_t)q;
    return true;
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
    stats_compute(diffs, n, scratch, &m->diff);
    m->value_x100 = per_iter(m->diff.median_x100, iters);
    m->min_x100 = per_iter(m->diff.min * 100, iters);
    /* Cross-check: the body against the empty body, same loop, same reads. */
    m->empty_x100 = per_iter(median_of_differences(t_empty, t_u, n), iters);
    m->methods_agree = close_enough(m->value_x100, m->empty_x100);
}

/* One step of the time base in its own ticks: the PIT's are scaled. */
static uint64_t resolution(void) { return timer.mode == READ_PIT ? PIT_SCALE : 1; }

static uint32_t prior_n; /* non-negative differences of the run before a rerun, in prior[] */

static void judge(struct measurement *m, const struct plan *pl, uint32_t n, uint32_t n4, bool rerun)
{
    struct judge_samples js = {
        .t_empty = t_empty, .t_u = t_u, .t_2u = t_2u, .t_4u = t_4u, .diffs = diffs, .n = n, .n4 = n4,
        .prior = rerun ? prior : NULL, .prior_n = rerun ? prior_n : 0, .resolution = resolution(),
        .startup_x100 = pl->ref_startup_x100,
    };
    judge_measurement(&js, scratch, m);
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
    m->methods_agree = true;
    stats_judgement_start(&m->judge);
    stats_judgement_raise(&m->judge, STATS_VERDICT_NOT_JUDGED, STATS_FLAG_FEW,
                          "a cold measurement has one sample: its stability is not judged");
    m->stable = false;
    m->aperf.why = "a cold measurement has one sample and no U/2U difference";
}

const uint8_t *measure_place_copies(const struct bench *b, const struct bench_ctx *ctx, uint32_t loops,
                                    uint32_t copies)
{
    int32_t size = bench_copy_size(b);
    if (size < 0 || (b->mode == 64 && !platform->call64))
        return NULL;
    load_registers(ctx);
    body_place_running(b, (uint32_t)size);
    ck_timing.loops = loops;
    return body_place_entry(b, copies, (uint32_t)size);
}

void measure_run_placed(const struct bench *b, const uint8_t *entry)
{
    if (entry)
        run_at(b, entry);
}

/* A sample must span STATS_MIN_STEPS steps of its time base (stats_checks.h):
 * unless L was chosen (by the benchmark or loops=), grow it until the
 * shortest of three t(U) spans a quarter more, on any time base. The PIT
 * (838 ns a tick, 16 bits) wraps at 55 ms: 1250 of its ticks are 1 ms. A
 * wide-vector body is warmed up first (measure_bench): grown on cold 512-bit
 * units, L was too short once they were up (issue 29, cause 1: VMAXPD zmm
 * read 0.01, its timed run below the minimum). */
#define LENGTH_TARGET_STEPS (STATS_MIN_STEPS + STATS_MIN_STEPS / 4)
#define LOOPS_MAX 1000000u

static uint32_t grow_loops(const struct bench *b, uint32_t unroll, uint32_t size, uint32_t loops)
{
    uint64_t target = LENGTH_TARGET_STEPS * resolution();
    for (;;) {
        ck_timing.loops = loops;
        uint64_t t = UINT64_MAX;
        for (int i = 0; i < 3 && !damage.vector; i++) {
            uint64_t one = run_copies(b, unroll, size);
            t = one < t ? one : t;
        }
        if (t >= target || loops >= LOOPS_MAX || damage.vector)
            return loops;
        uint64_t grow = t ? target / t + 1 : 16;
        loops = grow * loops > LOOPS_MAX ? LOOPS_MAX : (uint32_t)(grow * loops);
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
    m->warmups += w.runs;
    m->warmup_settled = w.settled;
}

/* The PIT's 16 bits wrap after 65536 of its ticks (55 ms): 4U copies are
 * timed only where t(U) stays below a quarter of that. */
#define PIT_WRAP_TICKS (65536u * PIT_SCALE)

static bool four_fits(const struct bench *b, uint32_t unroll, uint32_t size)
{
    return timer.mode != READ_PIT || run_copies(b, unroll, size) < PIT_WRAP_TICKS / 4 - PIT_SCALE;
}

/* S samples, judged; one rerun when the judgement is "unstable" (a
 * transient disturbance), whose modes are then judged with the first run's.
 * Not on a timer found untrustworthy (an emulator's clock follows the
 * host, not the body): a second run cannot make it the CPU's time, and it
 * would double the suite's time under QEMU's TCG. */
static void sample_and_judge(const struct bench *b, const struct bench *ref, const struct plan *pl,
                             uint32_t size, struct measurement *m)
{
    uint64_t iters = (uint64_t)m->unroll * m->loops;
    int32_t ref_copy = ref ? bench_copy_size(ref) : -1;
    if (ref_copy < 0 || ref == b || b->reference)
        ref = NULL;
    struct sampling sp = {
        .b = b, .ref = ref, .size = size, .ref_size = ref ? (uint32_t)ref_copy : 0,
        .ref_loops = pl->ref_loops ? pl->ref_loops : MEASURE_REF_LOOPS,
        .four = 4 * m->unroll <= CK_MAX_COPIES && four_fits(b, m->unroll, size),
    };
    uint32_t n4 = sp.four ? (m->samples + MEASURE_4U_EVERY - 1) / MEASURE_4U_EVERY : 0;
    bool regrown = false;
    for (;;) {
        take_samples(&sp, pl, m->samples);
        if (ref) {
            m->ref_median_x100 = median_of_differences(ref_u, ref_2u, m->samples);
            m->ref_iters = (uint64_t)MEASURE_REF_UNROLL * sp.ref_loops;
        }
        analyse(m, m->samples, iters);
        m->switches_known = switches_known;
        m->switched = switched;
        m->switched_at = switches_known ? switched_at : NULL;
        judge(m, pl, m->samples, n4, m->reruns > 0);
        aperf_finish(m->samples, iters, timer.mode == READ_PIT ? 0 : timer.hz, &m->aperf);
        /* Too short though L was the harness's to choose (a body that sped
         * up after the growth): it knows the L it needs, so it takes it
         * and samples again, once (issue 31: "878 loops needed, 800 used"). */
        if ((m->judge.flags & STATS_FLAG_SHORT) && pl->loops_grow && !regrown && !damage.vector &&
            m->length.loops_needed > m->loops && m->length.loops_needed <= LOOPS_MAX) {
            regrown = true;
            uint64_t more = (uint64_t)m->length.loops_needed * 5 / 4;
            m->loops = more > LOOPS_MAX ? LOOPS_MAX : (uint32_t)more;
            ck_timing.loops = m->loops;
            iters = (uint64_t)m->unroll * m->loops;
            continue;
        }
        if (m->judge.verdict != STATS_VERDICT_UNSTABLE || m->reruns == 1 || damage.vector || !pl->rerun)
            break;
        prior_n = 0;
        for (uint32_t s = 0; s < m->samples; s++)
            if (t_2u[s] >= t_u[s])
                prior[prior_n++] = diffs[s];
        m->reruns++;
    }
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
    m->loops_asked = m->loops;
    /* Warm the wide units before L is chosen: a cold 512-bit body runs at a
     * fraction of its throughput, so an L grown on it is too short once the
     * units are up (VPADDD zmm: 100 loops, 0.13 ticks an instruction where
     * the core takes 0.5 cycle; issue 29, cause 1). */
    bool wide = warmup_wanted(b->needs, BENCH_NEEDS_MAX);
    ck_timing.loops = m->loops;
    if (wide)
        warm_avx(b, size, m);
    if (pl->loops_grow)
        m->loops = grow_loops(b, m->unroll, size, m->loops);
    ck_timing.loops = m->loops;
    if (wide && m->loops != m->loops_asked)
        warm_avx(b, size, m); /* at the length the samples take */
    sample_and_judge(b, ref, pl, size, m);
    guard_check();
    m->damage = damage;
}
