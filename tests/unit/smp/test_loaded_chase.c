/* smp/chase/loaded (kernel/smp/loaded_chase.c) on the host: the sizing
 * (loaded_plan), the choice of each step's streamers (loaded_pick) and a
 * whole measurement with real threads as the other processors
 * (support/smp_threads.c: smp_call starts a thread, smp_wait joins it). What is asserted is exact: sizes, which steps ran
 * with which processors, which were abandoned; never a timing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "smp_threads.h"
#include "smp/loaded_chase.h"

static const struct platform fake = { .name = "fake", .smp_call = smp_threads_call, .smp_wait = smp_threads_wait };

/* The boot processor (APIC ID 0) and three started ones (2, 4, 6). */
static struct smp_info four(void)
{
    struct smp_info s = { .n = 4 };
    for (unsigned i = 0; i < 4; i++) {
        s.cpus[i].apic_id = i * 2;
        s.cpus[i].state = i ? SMP_STARTED : SMP_BSP;
    }
    return s;
}

#define BIG (4u << 20)
#define LLC (256u << 10)

static struct loaded_result r;

static void plan_sizes_from_the_llc(void **state)
{
    (void)state;
    uint64_t chain, stream;
    struct loaded_config c = { .big = (uint8_t *)4096, .big_size = BIG, .llc = LLC, .llc_level = 3 };
    assert_null(loaded_plan(&c, 3, &chain, &stream));
    assert_int_equal(chain, LLC / 2);
    assert_int_equal(stream, 2 * LLC);            /* room for three buffers of 2 x LLC */
    c.big_size = 1u << 20;                          /* 1 MiB: an equal share of what is left */
    assert_null(loaded_plan(&c, 3, &chain, &stream));
    assert_int_equal(stream, ((1u << 20) - LLC / 2 - 64 - 4096) / 3 / 4096 * 4096);
    c.big_size = LLC / 2;                           /* not even the chain */
    assert_string_equal(loaded_plan(&c, 3, &chain, &stream),
                        "needs 324 KiB of large memory (a chain of 128 KiB and 64 KiB per streamer), have 128 KiB");
    c.llc = 0;
    assert_string_equal(loaded_plan(&c, 3, &chain, &stream),
                        "CPUID describes no last-level cache to size the chain from");
}

static void pick_skips_the_lost(void **state)
{
    (void)state;
    bool lost[4] = { false, true, false, false };
    unsigned pick[4];
    assert_true(loaded_pick(lost, 4, 0, pick));
    assert_true(loaded_pick(lost, 4, 3, pick));
    assert_int_equal(pick[0], 0);
    assert_int_equal(pick[1], 2);
    assert_int_equal(pick[2], 3);
    assert_false(loaded_pick(lost, 4, 4, pick));
}

static void measure(const struct smp_info *s)
{
    static uint8_t *big;
    if (!big)
        big = malloc(BIG);
    assert_non_null(big);
    struct loaded_config c = { .big = big, .big_size = BIG, .llc = LLC, .llc_level = 3 };
    loaded_chase_measure(&fake, s, &c, 1000000000ull, &r);
}

static void every_step_with_its_streamers(void **state)
{
    (void)state;
    struct smp_info s = four();
    smp_threads_silent = smp_threads_lost = SMP_THREADS_NONE;
    measure(&s);
    assert_null(r.skip);
    assert_int_equal(r.chaser_apic, 0);
    assert_int_equal(r.working_set, LLC / 2);
    assert_int_equal(r.stream_bytes, 2 * LLC);
    assert_int_equal(r.nsteps, 4);
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(r.step[k].streamers, k);
        assert_true(r.step[k].min_x100 > 0 && r.step[k].min_x100 <= r.step[k].median_x100);
        for (unsigned i = 0; i < k; i++) {
            assert_int_equal(r.step[k].stream[i].apic_id, 2 * (i + 1));
            assert_true(r.step[k].stream[i].ticks > 0);
            assert_int_equal(r.step[k].stream[i].bytes % 4096, 0);
        }
    }
    assert_int_equal(r.lost, 0);
}

/* A streamer that faults (smp_wait: lost) is abandoned in the first step
 * that uses it; the next step finds too few left and the run ends there. */
static void faulting_streamer_is_abandoned(void **state)
{
    (void)state;
    struct smp_info s = four();
    smp_threads_lost = 2;
    measure(&s);
    smp_threads_lost = SMP_THREADS_NONE;
    assert_null(r.skip);
    assert_int_equal(r.nsteps, 3);
    assert_int_equal(r.lost, 1);
    assert_int_equal(r.lost_apic[0], 4);
    assert_int_equal(r.step[2].stream[1].apic_id, 4);
    assert_int_equal(r.step[2].stream[1].ticks, 0); /* what it said is not used */
}

/* One that takes the work and never starts: the wait for it to begin is
 * bounded, smp_wait's "still busy" abandons it. */
static void silent_streamer_is_abandoned(void **state)
{
    (void)state;
    struct smp_info s = four();
    s.n = 2;
    smp_threads_silent = 1;
    smp_threads_spin_limit = SMP_THREADS_GIVE_UP;
    measure(&s);
    smp_threads_spin_limit = SMP_THREADS_SPINS;
    smp_threads_silent = SMP_THREADS_NONE;
    assert_int_equal(r.nsteps, 2);
    assert_int_equal(r.step[1].streamers, 1);
    assert_int_equal(r.lost, 1);
    assert_int_equal(r.lost_apic[0], 2);
}

static void no_llc_is_a_skip(void **state)
{
    (void)state;
    struct smp_info s = four();
    struct loaded_config c = { .big = NULL, .big_size = 0, .llc = 0 };
    loaded_chase_measure(&fake, &s, &c, 0, &r);
    assert_string_equal(r.skip, "CPUID describes no last-level cache to size the chain from");
    assert_int_equal(r.nsteps, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_sizes_from_the_llc),
        cmocka_unit_test(pick_skips_the_lost),
        cmocka_unit_test(every_step_with_its_streamers),
        cmocka_unit_test(faulting_streamer_is_abandoned),
        cmocka_unit_test(silent_streamer_is_abandoned),
        cmocka_unit_test(no_llc_is_a_skip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
