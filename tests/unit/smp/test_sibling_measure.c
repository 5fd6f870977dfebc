/* smp/sibling's measurement (kernel/smp/sibling.c) on the host, with its
 * real kernels (sibling_kernels.c, built for the host) and real
 * concurrency: the test platform's smp_call runs the antagonist on a thread
 * of its own, smp_wait joins it, so a stop flag that never stops it would
 * hang here. Asserted: which pairs are measured or skipped and why, and
 * that every kernel runs as body and antagonist; never a timing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "smp_threads.h"
#include "cpu/cpu.h"
#include "smp/sibling.h"

static const struct platform fake = { .name = "fake", .smp_call = smp_threads_call, .smp_wait = smp_threads_wait };
static const struct cpu_topology smt = { .source = "test", .smt_bits = 1 };
static struct sibling_result r;

/* The boot processor (APIC ID 0) and its sibling (1), both running. */
static struct smp_info pair(void)
{
    struct smp_info s = { .n = 2 };
    s.cpus[0] = (struct smp_cpu){ .apic_id = 0, .state = SMP_BSP };
    s.cpus[1] = (struct smp_cpu){ .apic_id = 1, .state = SMP_STARTED };
    return s;
}

/* The identified CPU as the kernel's would be: x87 and SSE2 are in every
 * x86-64 host; `sse2` false takes SSE2 away. */
static void features(bool sse2)
{
    struct cpu_info *c = (struct cpu_info *)cpu; /* the object itself is not const */
    c->features[cpu_feature_word(FEAT_FPU)] |= 1u << cpu_feature_bit(FEAT_FPU);
    if (sse2)
        c->features[cpu_feature_word(FEAT_SSE2)] |= 1u << cpu_feature_bit(FEAT_SSE2);
    else
        c->features[cpu_feature_word(FEAT_SSE2)] &= ~(1u << cpu_feature_bit(FEAT_SSE2));
}

static void measure(const char *text)
{
    struct sibling_choice c;
    char why[64];
    assert_true(sibling_choice_parse(text, &c, why, sizeof why));
    struct smp_info s = pair();
    sibling_measure(&fake, &s, &smt, &c, &r);
}

static void assert_measured(unsigned i, unsigned antagonist)
{
    assert_null(r.pairs[i].skip);
    assert_int_equal(r.pairs[i].antagonist, antagonist);
    assert_true(r.pairs[i].alone > 0 && r.pairs[i].loaded > 0);
}

static void every_antagonist_beside_add(void **state)
{
    (void)state;
    features(true);
    measure("all");
    assert_null(r.skip);
    assert_int_equal(r.body, SIBK_ADD);
    assert_int_equal(r.measured_apic, 0);
    assert_int_equal(r.sibling_apic, 1);
    assert_int_equal(r.n, SIBK_COUNT);
    for (unsigned i = 0; i < SIBK_COUNT; i++)
        assert_measured(i, i);
}

static void every_body_beside_add(void **state)
{
    (void)state;
    features(true);
    static const char *const texts[] = { "add", "imul,add", "load,add", "store,add", "x87,add", "sse2,add",
                                         "pause,add" };
    for (unsigned b = 0; b < sizeof texts / sizeof texts[0]; b++) {
        measure(texts[b]);
        assert_null(r.skip);
        assert_int_equal(r.body, b);
        assert_int_equal(r.n, 1);
        assert_measured(0, SIBK_ADD);
    }
}

static void without_sse2(void **state)
{
    (void)state;
    features(false);
    measure("sse2,add");
    assert_string_equal(r.skip, "the body sse2 needs SSE2: CPUID.01H:EDX bit 26 is clear");
    assert_int_equal(r.n, 0);
    measure("add,all");
    assert_int_equal(r.n, SIBK_COUNT);
    for (unsigned i = 0; i < SIBK_COUNT; i++)
        if (i == SIBK_SSE2)
            assert_string_equal(r.pairs[i].skip, "the antagonist sse2 needs SSE2: CPUID.01H:EDX bit 26 is clear");
        else
            assert_measured(i, i);
    features(true);
}

static void without_smt_or_a_sibling(void **state)
{
    (void)state;
    struct sibling_choice c;
    char why[64];
    assert_true(sibling_choice_parse("imul,load", &c, why, sizeof why));
    struct smp_info s = pair();
    const struct cpu_topology flat = { .source = "test", .smt_bits = 0 };
    sibling_measure(&fake, &s, &flat, &c, &r);
    assert_string_equal(r.skip, "no SMT: CPUID gives one thread per core");
    s.cpus[1].apic_id = 2; /* another core */
    sibling_measure(&fake, &s, &smt, &c, &r);
    assert_string_equal(r.skip, "no two running processors are SMT siblings");
}

/* A sibling that takes the antagonist and never finishes: that pair is
 * abandoned and no later pair waits on it. */
static void silent_sibling_is_abandoned(void **state)
{
    (void)state;
    features(true);
    smp_threads_silent = 1;
    measure("all");
    smp_threads_silent = SMP_THREADS_NONE;
    assert_null(r.skip);
    assert_int_equal(r.n, 1);
    assert_string_equal(r.pairs[0].skip, "a processor of the pair did not finish (abandoned)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_antagonist_beside_add),
        cmocka_unit_test(every_body_beside_add),
        cmocka_unit_test(without_sse2),
        cmocka_unit_test(without_smt_or_a_sibling),
        cmocka_unit_test(silent_sibling_is_abandoned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
