/* The measurement plan: a benchmark's declaration resolved once against the
 * options, and the counter loop of the event sweep driven by that plan (a
 * declared .loops, like sys_serializing.c's CPUID_LOOPS, must be what the
 * sweep runs, not loops=). The body here is a C stand-in that tells the
 * simulated PMU how many bodies ran and remembers the loop count it saw. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "harness/count.h"
#include "harness/measure.h"
#include "harness/plan.h"
#include "harness/timing_page.h"
#include "msr_sim.h"
#include "sim_arch.h"

#define BODY_INSNS 3
#define OVERHEAD_INSNS 137 /* prologue, reads, epilogue: must cancel */

static struct settings defaults(void)
{
    struct settings s;
    memset(&s, 0, sizeof s);
    s.samples = 201;
    s.warmup = 2;
    s.unroll = 8;
    s.loops = 100;
    return s;
}

static void declared_numbers_win_over_the_options(void **state)
{
    (void)state;
    struct settings s = defaults();
    struct bench b = { .name = "t/declared", .loops = 10, .unroll = 4, .samples = 5 };
    struct plan pl;
    plan_build(&b, &s, &pl);
    assert_int_equal(pl.loops, 10);
    assert_true(pl.loops_declared);
    assert_int_equal(pl.unroll, 4);
    assert_int_equal(pl.samples, 5);
    struct bench plain = { .name = "t/plain" };
    plan_build(&plain, &s, &pl);
    assert_int_equal(pl.loops, 100);
    assert_false(pl.loops_declared);
    assert_int_equal(pl.unroll, 8);
    assert_int_equal(pl.samples, 201);
    assert_int_equal(pl.warmup, 2);
}

/* loops=auto (0) leaves L to the harness, which grows it for a short
 * sample; a number, even 100, and a declared L are kept as they are. */
static void only_loops_auto_may_grow(void **state)
{
    (void)state;
    struct settings s = defaults();
    struct plan pl;
    struct bench plain = { .name = "t/plain" };
    plan_build(&plain, &s, &pl);
    assert_int_equal(pl.loops, 100);
    assert_false(pl.loops_grow);
    s.loops = 0;
    plan_build(&plain, &s, &pl);
    assert_int_equal(pl.loops, 100);
    assert_true(pl.loops_grow);
    struct bench declared = { .name = "t/declared", .loops = 10 };
    plan_build(&declared, &s, &pl);
    assert_int_equal(pl.loops, 10);
    assert_false(pl.loops_grow);
}

static void quick_shortens_only_the_default_sample_count(void **state)
{
    (void)state;
    struct settings s = defaults();
    s.quick = true;
    struct plan pl;
    plan_build(NULL, &s, &pl);
    assert_int_equal(pl.samples, 31);
    s.samples = 77;
    plan_build(NULL, &s, &pl);
    assert_int_equal(pl.samples, 77);
    s.samples = MEASURE_SAMPLES_MAX;
    struct bench big = { .name = "t/big", .samples = MEASURE_SAMPLES_MAX + 5 };
    plan_build(&big, &s, &pl);
    assert_int_equal(pl.samples, MEASURE_SAMPLES_MAX);
}

static void cold_comes_from_the_option_or_the_declaration(void **state)
{
    (void)state;
    struct settings s = defaults();
    struct bench cold = { .name = "t/cold", .cold = true };
    struct plan pl;
    plan_build(&cold, &s, &pl);
    assert_true(pl.cold);
    plan_build(NULL, &s, &pl);
    assert_false(pl.cold);
    s.cold = true;
    plan_build(NULL, &s, &pl);
    assert_true(pl.cold);
}

/* The stand-in body: one byte a copy, CK_MAX_COPIES of them, as the
 * generated function's copies are laid out (measure.c enters at
 * copies_end - copies * size). */
static uint8_t copies[CK_MAX_COPIES];
static struct msr_sim sim;
static uint32_t loops_seen_min, loops_seen_max, unroll_seen_max;

static void stand_in_body(void)
{
    uint32_t n = (uint32_t)(copies + CK_MAX_COPIES - (const uint8_t *)ck_timing.entry);
    uint64_t bodies = (uint64_t)n * ck_timing.loops;
    sim_run(&sim, OVERHEAD_INSNS + bodies * BODY_INSNS, 400 + 2 * bodies, 7 + ck_timing.loops + bodies);
    if (ck_timing.loops < loops_seen_min)
        loops_seen_min = ck_timing.loops;
    if (ck_timing.loops > loops_seen_max)
        loops_seen_max = ck_timing.loops;
    if (n > unroll_seen_max)
        unroll_seen_max = n;
    ck_timing.end_esp = ck_timing.stack_top; /* the body kept its stack */
}

static void the_sweep_runs_the_declared_loops_and_unroll(void **state)
{
    (void)state;
    struct pmu_driver d;
    assert_int_equal(sim_bind_arch_v4(&sim, &d), 0);
    struct pmu_eventsel sel[1];
    assert_int_equal(pmu_event_parse(&d, "INST_RETIRED.ANY_P", &sel[0]), 0);

    /* Declared like bench/sys_serializing.c's CPUID benchmarks. */
    struct bench b = { .name = "sys/cpuid_like", .fn = stand_in_body, .copies = copies,
                       .copies_end = copies + CK_MAX_COPIES, .loops = 10, .unroll = 2 };
    struct settings s = defaults();
    struct bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    loops_seen_min = UINT32_MAX;
    loops_seen_max = unroll_seen_max = 0;
    int64_t v[1];
    int err[1];
    count_sweep(&d, &b, &s, &ctx, sel, 1, v, err);
    assert_int_equal(err[0], 0);
    assert_int_equal(v[0], BODY_INSNS * 100);
    assert_int_equal(loops_seen_min, 10); /* not loops=100 */
    assert_int_equal(loops_seen_max, 10);
    assert_int_equal(unroll_seen_max, 4);  /* 2U of the declared U=2, not of unroll=8 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(declared_numbers_win_over_the_options),
        cmocka_unit_test(only_loops_auto_may_grow),
        cmocka_unit_test(quick_shortens_only_the_default_sample_count),
        cmocka_unit_test(cold_comes_from_the_option_or_the_declaration),
        cmocka_unit_test(the_sweep_runs_the_declared_loops_and_unroll),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
