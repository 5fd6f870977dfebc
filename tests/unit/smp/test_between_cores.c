/* The core-to-core ping-pong and the TSC handshake (kernel/smp/) on the
 * host, with real concurrency: the test platform's smp_call runs the posted
 * function on a thread of its own, smp_wait joins it. What is asserted is
 * exact: which cells are measured, which processors are abandoned and
 * that a silent or lost processor ends in a timeout or `lost` instead of a
 * hang; never a timing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "smp_threads.h"
#include "smp/c2c.h"
#include "smp/tsc_sync.h"

static int refuse(void *ctx, uint32_t msr, uint64_t *v) { (void)ctx; (void)msr; (void)v; return -1; }
static int refuse_w(void *ctx, uint32_t msr, uint64_t v) { (void)ctx; (void)msr; (void)v; return -1; }
static const struct msr_ops no_msr = { refuse, refuse_w, NULL };
static const struct platform fake = { .name = "fake", .msr = &no_msr, .smp_call = smp_threads_call, .smp_wait = smp_threads_wait };

static struct smp_info four(void)
{
    struct smp_info s = { .n = 4 };
    for (unsigned i = 0; i < 4; i++) {
        s.cpus[i].apic_id = i * 2;
        s.cpus[i].state = i ? SMP_STARTED : SMP_BSP;
    }
    return s;
}

static struct c2c_matrix m;

static void every_pair_measured(void **state)
{
    (void)state;
    struct smp_info s = four();
    s.cpus[3].state = SMP_NO_ANSWER; /* not in the matrix */
    smp_threads_silent = smp_threads_lost = SMP_THREADS_NONE;
    for (int rmw = 0; rmw < 2; rmw++) {
        c2c_measure(&fake, &s, rmw, 1000000000ull, &m);
        assert_string_equal(m.variant, rmw ? "rmw" : "store");
        assert_int_equal(m.n, 3);
        assert_int_equal(m.apic_id[2], 4);
        for (unsigned i = 0; i < 3; i++)
            for (unsigned j = 0; j < 3; j++) {
                assert_int_equal(m.cell[i][j], i == j ? C2C_EMPTY : C2C_MEASURED);
                if (i != j)
                    assert_true(m.min[i][j] > 0 && m.min[i][j] <= m.median[i][j]);
            }
        assert_int_equal(m.lost, 0);
    }
}

/* More processors than a screen's width: every started one is in the
 * matrix (it once stopped at 16), every pair measured. */
static void every_started_processor_is_in_the_matrix(void **state)
{
    (void)state;
    struct smp_info s = { .n = 20 };
    for (unsigned i = 0; i < 20; i++)
        s.cpus[i] = (struct smp_cpu){ .apic_id = i, .state = i ? SMP_STARTED : SMP_BSP };
    smp_threads_silent = smp_threads_lost = SMP_THREADS_NONE;
    c2c_measure(&fake, &s, true, 0, &m);
    assert_int_equal(m.n, 20);
    assert_int_equal(m.apic_id[19], 19);
    for (unsigned i = 0; i < 20; i++)
        for (unsigned j = 0; j < 20; j++)
            assert_int_equal(m.cell[i][j], i == j ? C2C_EMPTY : C2C_MEASURED);
}

/* A processor that faults (smp_wait says lost) is abandoned after its
 * first pair; every later pair with it is `lost`, the others measured. */
static void lost_processor_is_abandoned(void **state)
{
    (void)state;
    struct smp_info s = four();
    smp_threads_silent = SMP_THREADS_NONE;
    smp_threads_lost = 2;
    c2c_measure(&fake, &s, true, 0, &m);
    assert_int_equal(m.lost, 1);
    assert_int_equal(m.lost_apic[0], 4);
    for (unsigned i = 0; i < 4; i++)
        for (unsigned j = 0; j < 4; j++)
            if (i != j)
                assert_int_equal(m.cell[i][j], (i == 2 || j == 2) ? C2C_LOST : C2C_MEASURED);
    smp_threads_lost = SMP_THREADS_NONE;
}

/* One that takes the work and never answers: the boot processor's ping
 * gives up after its spin limit (a timeout, not a hang), and smp_wait's
 * "still busy" abandons it. */
static void silent_processor_times_out(void **state)
{
    (void)state;
    struct smp_info s = four();
    s.n = 2;
    smp_threads_silent = 1;
    smp_threads_spin_limit = SMP_THREADS_GIVE_UP;
    c2c_measure(&fake, &s, false, 0, &m);
    smp_threads_spin_limit = SMP_THREADS_SPINS;
    assert_int_equal(m.cell[0][1], C2C_LOST);
    assert_int_equal(m.cell[1][0], C2C_LOST);
    assert_int_equal(m.lost, 1);
    smp_threads_silent = SMP_THREADS_NONE;
}

static void tsc_offsets_of_threads(void **state)
{
    (void)state;
    static struct tsc_sync t;
    struct smp_info s = four();
    tsc_sync_measure(&fake, &s, 0, &t);
    assert_int_equal(t.n, 4);
    assert_true(t.cpus[0].boot);
    assert_false(t.adjust_exists); /* no CPU identified: leaf 7 unknown */
    for (unsigned i = 1; i < 4; i++) {
        assert_true(t.cpus[i].measured);
        assert_false(t.cpus[i].have_adjust);
        assert_int_not_equal(t.cpus[i].verdict, TSC_UNMEASURED);
    }
    assert_string_equal(tsc_verdict_name(TSC_DRIFTING), "drifting");
}

int main(void)
{
    smp_threads_share_one_core(); /* 380 pairs in 0.1 s instead of 90 (smp_threads.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_pair_measured),
        cmocka_unit_test(every_started_processor_is_in_the_matrix),
        cmocka_unit_test(lost_processor_is_abandoned),
        cmocka_unit_test(silent_processor_times_out),
        cmocka_unit_test(tsc_offsets_of_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
