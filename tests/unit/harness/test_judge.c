/* The wiring of kernel/stats's checks into the measurement (issue 20):
 * measure.c times simulated bodies whose cost is known exactly (C stand-ins
 * that set the timing page's two reads from the copies and loops they were
 * run with, entered through a fake call64 like a 64-bit body), and the
 * judgement must say what the statistics say about them: the cycle
 * reference timed with its own unroll, whatever U is; short samples grow L
 * unless it was chosen, else "short"; too few samples "not judged";
 * negative differences, two modes, a cost per copy that changes with the
 * copy count and a reference that disagrees with start-up all flagged with
 * their reasons; and the marks a readable row shows for them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "harness/measure.h"
#include "harness/plan.h"
#include "harness/result.h"
#include "harness/timing_page.h"
#include "platform/platform.h"

/* Every run costs OVERHEAD ticks (the reads, the call) plus, per loop
 * iteration, the copies' cost, but never less than LOOP_FLOOR ticks: the
 * loop's own DEC/JNZ, under which a cheap copy hides. */
#define OVERHEAD 100u
#define LOOP_FLOOR 2u

enum shape { LINEAR, SATURATES, TWO_STATES, DISTURBED, JITTER, DRIFTS };

struct sim_body {
    uint8_t copies[CK_MAX_COPIES];
    uint32_t cost;        /* ticks per copy */
    enum shape shape;
    uint32_t runs, samples; /* runs so far; runs with 0 copies (one per sample) */
    uint32_t min_copies, max_copies; /* of the runs with copies */
};

static struct sim_body body, ref;

static uint64_t per_iteration(struct sim_body *s, uint32_t n)
{
    uint64_t t = (uint64_t)n * s->cost;
    if (s->shape == SATURATES && n > 16) /* the push/pop pair past 16 in flight: 6 ticks a copy */
        t = 16ull * s->cost + (n - 16) * 6ull;
    if (s->shape == TWO_STATES && s->samples % 2) /* a learned state: every other sample 5x faster */
        t = t / 5;
    if (s->shape == DRIFTS) /* slower by 0.5 % a sample: twice the cost after 200 */
        t = t * (1000 + 5 * s->samples) / 1000;
    return t > LOOP_FLOOR ? t : LOOP_FLOOR;
}

static void run_sim(struct sim_body *s)
{
    uint32_t n = (uint32_t)(s->copies + CK_MAX_COPIES - (const uint8_t *)(uintptr_t)ck_timing.entry);
    s->runs++;
    if (n == 0)
        s->samples++;
    else {
        s->min_copies = n < s->min_copies ? n : s->min_copies;
        s->max_copies = n > s->max_copies ? n : s->max_copies;
    }
    uint64_t t = OVERHEAD + ck_timing.loops * per_iteration(s, n);
    /* An interrupt in every 5th sample's t(U) run: t(2U) < t(U) there. */
    if (s->shape == DISTURBED && s->samples % 5 == 0 && n == 8)
        t += 100000;
    /* The reads of issue 31's Zen 5 guest: CPUID exits to the hypervisor,
     * whose cost jitters by a few of the TSC's steps of 21 ticks (the TSC
     * moves at its 100 MHz update), and twice in the first ensemble an exit
     * in t(U) long enough to make t(2U) < t(U). */
    if (s->shape == JITTER || s->shape == DRIFTS) {
        t += 21u * ((s->runs * 2654435761u) >> 30);
        if (n == 8 && (s->samples == 13 || s->samples == 41))
            t += 30000;
        t -= t % 21;
    }
    ck_timing.t0 = 1000;
    ck_timing.t1 = 1000 + t;
    ck_timing.end_esp = ck_timing.stack_top; /* the body kept its stack */
}

static void body_fn(void) { run_sim(&body); }
static void ref_fn(void) { run_sim(&ref); }

extern const uint8_t ck_probe64_hook[]; /* probe64.S; a stand-in in tests/unit/support/host32.c */

/* The platform's call64: the probe run (the body's function entering
 * probe64.S's hook) leaves EBP one lower, as a body that kept it would;
 * anything else is a stand-in body's timed run. */
static uintptr_t fake_call64(uintptr_t fn, uintptr_t arg)
{
    (void)arg;
    if (ck_timing.entry == (uintptr_t)ck_probe64_hook) {
        ck_timing.probe_ebp = CK_PROBE_EBP - 1;
        ck_timing.end_esp = ck_timing.stack_top;
    } else {
        ((void (*)(void))fn)();
    }
    return 0;
}
static const struct platform fake_platform = { .name = "fake", .call64 = fake_call64 };

static struct bench bench_of(struct sim_body *s, void (*fn)(void), const char *name)
{
    return (struct bench){ .name = name, .fn = fn, .mode = 64, .copies = s->copies,
                           .copies_end = s->copies + CK_MAX_COPIES };
}

static void sim_reset(struct sim_body *s, uint32_t cost, enum shape shape)
{
    s->cost = cost;
    s->shape = shape;
    s->runs = s->samples = s->max_copies = 0;
    s->min_copies = UINT32_MAX;
}

/* U, L, S; L grows only when grow is set; a start-up rate of 1.00 tick per
 * ADD, the reference timed in 100 loops; an unstable result runs again. */
static struct plan plan_of(uint32_t u, uint32_t l, uint32_t samples, bool grow)
{
    return (struct plan){ .unroll = u, .loops = l, .samples = samples, .loops_grow = grow,
                          .ref_loops = 100, .ref_startup_x100 = 100, .rerun = true };
}

static struct measurement m;

static void measure(const struct plan *pl, bool with_ref)
{
    static const struct bench_ctx ctx;
    platform = &fake_platform;
    struct bench b = bench_of(&body, body_fn, "t/body"), r = bench_of(&ref, ref_fn, "t/ref");
    measure_bench_with_reference(&b, with_ref ? &r : NULL, pl, &ctx, &m);
    assert_null(m.failed);
    assert_int_equal(m.damage.vector, 0);
}

/* The issue's --unroll 1 imul: at U = 1 one ADD hides under the loop (2
 * ticks an iteration either way), so a reference timed with the body's U
 * reads 0 ticks per ADD. Timed with 8 and 16 copies it reads 1.00, and
 * the body's 3 ticks are 3.00 cycles. */
static void the_reference_keeps_its_own_unroll(void **state)
{
    (void)state;
    sim_reset(&body, 3, LINEAR);
    sim_reset(&ref, 1, LINEAR);
    struct plan pl = plan_of(1, 1000, 15, false);
    measure(&pl, true);
    assert_int_equal(ref.min_copies, MEASURE_REF_UNROLL);
    assert_int_equal(ref.max_copies, 2 * MEASURE_REF_UNROLL);
    assert_int_equal(m.ref_iters, MEASURE_REF_UNROLL * 100);
    int64_t cycles = 0;
    assert_true(measure_ref_cycles_x100(&m, &cycles));
    assert_int_equal(cycles, 300);
    assert_int_equal(m.value_x100, 300);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_STABLE);
    assert_true(m.stable);
    assert_string_equal(m.judge.reason, "");
}

static void a_reference_off_the_start_up_rate_is_flagged(void **state)
{
    (void)state;
    sim_reset(&body, 3, LINEAR);
    sim_reset(&ref, 1, LINEAR);
    struct plan pl = plan_of(8, 100, 15, false);
    pl.ref_startup_x100 = 250;
    measure(&pl, true);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_UNSTABLE);
    assert_true(m.judge.flags & STATS_FLAG_REF_RATE);
    assert_non_null(strstr(m.judge.reason, "the cycle reference ran at 1.00 ticks per step here, 2.50 at start-up"));
}

/* --unroll 1 --loops 1: t(U) is 103 ticks. Left to the harness, L grows
 * until t(U) spans 1250; chosen, it stays and the result is not judged. */
static void short_samples_grow_the_loops_unless_chosen(void **state)
{
    (void)state;
    sim_reset(&body, 3, LINEAR);
    struct plan pl = plan_of(1, 1, 15, true);
    measure(&pl, false);
    assert_int_equal(m.loops_asked, 1);
    assert_true(m.loops >= (1250 - OVERHEAD + 2) / 3);
    assert_false(m.judge.flags & STATS_FLAG_SHORT);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_STABLE);

    sim_reset(&body, 3, LINEAR);
    pl = plan_of(1, 1, 15, false);
    measure(&pl, false);
    assert_int_equal(m.loops, 1);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_NOT_JUDGED);
    assert_int_equal(m.judge.flags, STATS_FLAG_SHORT);
    assert_false(m.stable);
    assert_string_equal(m.judge.reason,
                        "the timed run spans 103 ticks, below the minimum 1000: 10 loops needed, 1 used");
}

static void fourteen_samples_are_not_judged(void **state)
{
    (void)state;
    sim_reset(&body, 3, LINEAR);
    struct plan pl = plan_of(8, 100, 14, false);
    measure(&pl, false);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_NOT_JUDGED);
    assert_int_equal(m.judge.flags, STATS_FLAG_FEW);
    assert_false(m.stable);
    sim_reset(&body, 3, LINEAR);
    pl = plan_of(8, 100, 15, false);
    measure(&pl, false);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_STABLE);
}

/* 1 tick a copy up to 16 copies, 6 beyond: n-vs-2n at U = 8 says 1.00,
 * from 16 to 32 copies it is 6.00. */
static void a_cost_that_changes_with_the_copy_count_is_non_linear(void **state)
{
    (void)state;
    sim_reset(&body, 1, SATURATES);
    struct plan pl = plan_of(8, 1000, 41, false);
    measure(&pl, false);
    assert_int_equal(m.value_x100, 100);
    assert_true(m.lin.have);
    assert_int_equal(m.lin.samples_4u, 11);
    assert_int_equal(m.lin.u2_x100, 100);
    assert_int_equal(m.lin.u4_x100, 600);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(m.judge.flags, STATS_FLAG_NONLINEAR);
    assert_string_equal(m.judge.reason, "non-linear in the copy count: 1.00 at 16 copies, 6.00 at 32");
    assert_int_equal(body.max_copies, 32);

    sim_reset(&body, 1, LINEAR);
    measure(&pl, false);
    assert_true(m.lin.have);
    assert_int_equal(m.lin.u4_x100, 100);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_STABLE);
}

/* U = 32: 4U copies do not exist, so no t(4U) and no linearity. */
static void no_linearity_beyond_the_copies(void **state)
{
    (void)state;
    sim_reset(&body, 1, LINEAR);
    struct plan pl = plan_of(32, 100, 15, false);
    measure(&pl, false);
    assert_false(m.lin.have);
    assert_int_equal(body.max_copies, 64);
}

/* Every other sample 5x faster: two modes, with their counts, over both
 * runs (the first was unstable, so it ran again). */
static void two_states_are_two_modes(void **state)
{
    (void)state;
    sim_reset(&body, 5, TWO_STATES);
    struct plan pl = plan_of(8, 1000, 30, false);
    measure(&pl, false);
    assert_int_equal(m.reruns, 1);
    assert_true(m.judge.flags & STATS_FLAG_MODES);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(m.modes.n, 60);
    assert_int_equal(m.modes.count, 2);
    assert_int_equal(m.modes.mode[0].count + m.modes.mode[1].count, 60);
    assert_int_equal(m.modes.mode[0].count, 30);
    assert_non_null(strstr(m.judge.reason, "2 modes: 1.00 (30 of 60), 5.00 (30 of 60)"));
}

/* On a timer found untrustworthy (plan_build clears rerun) an unstable
 * result is not measured again. */
static void no_rerun_when_told(void **state)
{
    (void)state;
    sim_reset(&body, 5, TWO_STATES);
    struct plan pl = plan_of(8, 1000, 30, false);
    pl.rerun = false;
    measure(&pl, false);
    assert_int_equal(m.reruns, 0);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_UNSTABLE);
    assert_int_equal(m.modes.n, 30);
}

static void negative_differences_make_it_unstable(void **state)
{
    (void)state;
    sim_reset(&body, 3, DISTURBED);
    struct plan pl = plan_of(8, 100, 20, false);
    measure(&pl, false);
    assert_int_equal(m.negative, 4);
    assert_true(m.judge.flags & STATS_FLAG_NEGATIVES);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_UNSTABLE);
    assert_string_equal(m.judge.reason, "4 of 20 samples had fewer ticks with 16 copies than with 8");
}

/* Issue 31: lat64/imul 3.00 marked unstable on a quiet machine, "minima
 * differ by 1.90". A body of 2 ticks a copy timed through reads that jitter
 * as that guest's did, with two exits that made t(2U) < t(U): stable, ok,
 * not measured again. */
static void jitter_of_the_reads_leaves_a_stable_body_unmarked(void **state)
{
    (void)state;
    char marks[RESULT_MARKS_MAX];
    sim_reset(&body, 2, JITTER);
    struct plan pl = plan_of(8, 100, 201, false);
    measure(&pl, false);
    assert_int_equal(m.negative, 2);
    assert_int_equal(m.reruns, 0);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_STABLE);
    assert_string_equal(m.judge.reason, "");
    result_marks(&m.judge, true, false, marks);
    assert_string_equal(marks, "ok");
}

/* The same reads on a body that slows down sample by sample: its ensembles'
 * medians move beyond the noise, so it is still unstable, after its rerun. */
static void a_drifting_body_is_still_unstable(void **state)
{
    (void)state;
    char marks[RESULT_MARKS_MAX];
    sim_reset(&body, 2, DRIFTS);
    struct plan pl = plan_of(8, 100, 201, false);
    measure(&pl, false);
    assert_int_equal(m.reruns, 1);
    assert_int_equal(m.judge.verdict, STATS_VERDICT_UNSTABLE);
    assert_true(m.judge.flags & STATS_FLAG_ENSEMBLES);
    assert_non_null(strstr(m.judge.reason, "3 ensembles disagree: their medians differ by "));
    result_marks(&m.judge, true, false, marks);
    assert_string_equal(marks, "S");
}

static void marks_in_their_order(void **state)
{
    (void)state;
    char marks[RESULT_MARKS_MAX];
    struct stats_judgement j;
    stats_judgement_start(&j);
    result_marks(&j, true, false, marks);
    assert_string_equal(marks, "ok");
    result_marks(&j, false, false, marks);
    assert_string_equal(marks, "U");
    result_marks(&j, true, true, marks);
    assert_string_equal(marks, "D");
    stats_judgement_raise(&j, STATS_VERDICT_NOT_JUDGED, STATS_FLAG_FEW, "few");
    result_marks(&j, false, false, marks);
    assert_string_equal(marks, "U?");
    stats_judgement_raise(&j, STATS_VERDICT_UNSTABLE, STATS_FLAG_MODES, "modes");
    stats_judgement_raise(&j, STATS_VERDICT_UNSTABLE, STATS_FLAG_CLAMPED, "clamped");
    result_marks(&j, false, true, marks);
    assert_string_equal(marks, "USNMD");
    stats_judgement_start(&j);
    stats_judgement_raise(&j, STATS_VERDICT_UNSTABLE, STATS_FLAG_NONLINEAR, "non-linear");
    result_marks(&j, true, false, marks);
    assert_string_equal(marks, "SM");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_reference_keeps_its_own_unroll),
        cmocka_unit_test(a_reference_off_the_start_up_rate_is_flagged),
        cmocka_unit_test(short_samples_grow_the_loops_unless_chosen),
        cmocka_unit_test(fourteen_samples_are_not_judged),
        cmocka_unit_test(a_cost_that_changes_with_the_copy_count_is_non_linear),
        cmocka_unit_test(no_linearity_beyond_the_copies),
        cmocka_unit_test(two_states_are_two_modes),
        cmocka_unit_test(no_rerun_when_told),
        cmocka_unit_test(negative_differences_make_it_unstable),
        cmocka_unit_test(jitter_of_the_reads_leaves_a_stable_body_unmarked),
        cmocka_unit_test(a_drifting_body_is_still_unstable),
        cmocka_unit_test(marks_in_their_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
