/* The AVX warm-up policy (kernel/clock/warmup.c): which bodies are warmed,
 * and when their runs count as settled. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "clock/warmup.h"

#define HZ 3000000000ull /* 100 µs = 300,000 ticks */

static void avx_bodies_are_warmed(void **state)
{
    (void)state;
    int avx2[4] = { FEAT_AVX, FEAT_AVX2, FEAT_NONE, FEAT_NONE };
    int fma[4] = { FEAT_FMA, FEAT_NONE };
    int zmm[4] = { FEAT_AVX512F, FEAT_AVX512VL };
    int sse[4] = { FEAT_SSE2, FEAT_NONE };
    int none[4] = { FEAT_NONE };
    int after_end[4] = { FEAT_SSE2, FEAT_NONE, FEAT_AVX, FEAT_NONE };
    assert_true(warmup_wanted(avx2, 4));
    assert_true(warmup_wanted(fma, 4));
    assert_true(warmup_wanted(zmm, 4));
    assert_false(warmup_wanted(sse, 4));
    assert_false(warmup_wanted(none, 4));
    assert_false(warmup_wanted(after_end, 4)); /* the list ends at FEAT_NONE */
    assert_false(warmup_wanted(avx2 + 2, 2));
}

/* Runs of t ticks until the policy stops; returns the runs taken. */
static uint32_t feed(struct warmup *w, const uint64_t *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (warmup_step(w, t[i]))
            return i + 1;
    return 0;
}

static void settles_after_the_minimum_time_and_three_agreeing_runs(void **state)
{
    (void)state;
    struct warmup w;
    warmup_begin(&w, HZ);
    assert_int_equal(w.min_ticks, 300000);
    uint64_t t[200];
    for (int i = 0; i < 200; i++)
        t[i] = 10000; /* steady from the start: 30 runs make the minimum time */
    assert_int_equal(feed(&w, t, 200), 30);
    assert_true(w.settled);
    assert_int_equal(w.runs, 30);
}

static void a_slow_steady_phase_is_not_settled(void **state)
{
    (void)state;
    /* The documented warm-up: ~56,000 cycles at 4.5x the time (here 12 runs
     * of 4,500 ticks, steady in themselves), then full speed (1,000 ticks).
     * Three agreeing slow runs come early; the minimum time (300,000 ticks)
     * keeps the warm-up going past the slow phase. */
    struct warmup w;
    warmup_begin(&w, HZ);
    uint64_t t[400];
    int i = 0;
    for (; i < 12; i++)
        t[i] = 4500;
    for (; i < 400; i++)
        t[i] = 1000;
    assert_int_equal(feed(&w, t, 400), 258); /* 54,000 + 246 x 1,000 = 300,000 ticks */
    assert_int_equal(w.last, 1000);
    assert_true(w.settled);
}

static void one_percent_is_close_enough(void **state)
{
    (void)state;
    struct warmup w;
    warmup_begin(&w, 0); /* no minimum time known */
    uint64_t t[] = { 1000, 1010, 1000, 1010 };
    assert_int_equal(feed(&w, t, 4), 4);
    assert_true(w.settled);
    warmup_begin(&w, 0);
    uint64_t u[] = { 1000, 1011, 1000, 1011, 1000, 1011 };
    assert_int_equal(feed(&w, u, 6), 0); /* 1.1 %: never agrees */
    assert_false(w.settled);
}

static void bounded_when_it_never_settles(void **state)
{
    (void)state;
    struct warmup w;
    warmup_begin(&w, HZ);
    uint32_t runs = 0;
    while (!warmup_step(&w, runs % 2 ? 1000 : 2000))
        runs++;
    assert_int_equal(w.runs, WARMUP_MAX_RUNS);
    assert_false(w.settled);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(avx_bodies_are_warmed),
        cmocka_unit_test(settles_after_the_minimum_time_and_three_agreeing_runs),
        cmocka_unit_test(a_slow_steady_phase_is_not_settled),
        cmocka_unit_test(one_percent_is_close_enough),
        cmocka_unit_test(bounded_when_it_never_settles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
