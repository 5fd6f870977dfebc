/* Sampling's arithmetic (issue 32): a sampled instruction pointer to an
 * instruction of the body (its offset in its copy, the copy's number), the
 * loop's and the handler's apart, everything else elsewhere; the binomial
 * error of a share; and sample= as the option parser reads it. All exact. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "harness/sample.h"
#include "stats/stats.h"
#include "msr_sim.h"
#include "sim_arch.h"

/* Four copies of a 6-byte body (instructions at +0, +2, +4) at 0x1000, the
 * block's JMP right before the 64-copy block, DEC/JNZ right after the run. */
static const struct sample_layout L = {
    .entry = 0x1000, .copies = 4, .copy_size = 6,
    .loop_lo = 0x1018 - 64 * 6 - 8, .loop_hi = 0x1018 - 64 * 6,
    .loop2_lo = 0x1018, .loop2_hi = 0x1020,
    .handler_lo = 0x9000, .handler_hi = 0x9100,
};

static void test_offsets_and_copies(void **state)
{
    (void)state;
    uint32_t off = 99, copy = 99;
    assert_int_equal(sample_locate(&L, 0x1000, &off, &copy), SAMPLE_IN_BODY);
    assert_int_equal(off, 0);
    assert_int_equal(copy, 0);
    assert_int_equal(sample_locate(&L, 0x1004, &off, &copy), SAMPLE_IN_BODY);
    assert_int_equal(off, 4);
    assert_int_equal(copy, 0);
    /* The boundary: the byte after copy 0's last is copy 1's first. */
    assert_int_equal(sample_locate(&L, 0x1006, &off, &copy), SAMPLE_IN_BODY);
    assert_int_equal(off, 0);
    assert_int_equal(copy, 1);
    assert_int_equal(sample_locate(&L, 0x1017, &off, &copy), SAMPLE_IN_BODY);
    assert_int_equal(off, 5);
    assert_int_equal(copy, 3);
    /* Right after the last copy: the loop's DEC, not a fifth copy. */
    assert_int_equal(sample_locate(&L, 0x1018, &off, &copy), SAMPLE_IN_LOOP);
    assert_int_equal(sample_locate(&L, 0x1018 - 64 * 6 - 6, &off, &copy), SAMPLE_IN_LOOP);
    /* Copies of the block that this run does not enter are not the body. */
    assert_int_equal(sample_locate(&L, 0x0ffa, &off, &copy), SAMPLE_ELSEWHERE);
    assert_int_equal(sample_locate(&L, 0x9000, &off, &copy), SAMPLE_IN_HANDLER);
    assert_int_equal(sample_locate(&L, 0x9100, &off, &copy), SAMPLE_ELSEWHERE);
}

static void test_profile_counts_each_place(void **state)
{
    (void)state;
    static const uint64_t ips[] = { 0x1000, 0x1002, 0x1004, 0x1006, 0x1008, 0x100a,
                                    0x1018, 0x1019, 0x9010, 0x5555, 0x1002 };
    static struct sample_profile p;
    sample_attribute(&L, ips, sizeof ips / sizeof ips[0], &p);
    assert_int_equal(p.total, 11);
    assert_int_equal(p.body, 7);
    assert_int_equal(p.loop, 2);
    assert_int_equal(p.handler, 1);
    assert_int_equal(p.elsewhere, 1);
    assert_int_equal(p.at[0], 2);
    assert_int_equal(p.at[2], 3);
    assert_int_equal(p.at[4], 2);
    assert_int_equal(p.at[1] + p.at[3] + p.at[5], 0);
    assert_int_equal(p.by_copy[0], 4);
    assert_int_equal(p.by_copy[1], 3);
    assert_int_equal(p.per_copy_max, 4);
}

static void test_share_error_is_binomial(void **state)
{
    (void)state;
    /* sqrt(0.5 * 0.5 / 100) = 5.00 %; sqrt(0.25 * 0.75 / 1200) = 1.25 %. */
    assert_int_equal(stats_binomial_error_x100(50, 100), 500);
    assert_int_equal(stats_binomial_error_x100(300, 1200), 125);
    assert_int_equal(stats_binomial_error_x100(0, 100), 0);
    assert_int_equal(stats_binomial_error_x100(100, 100), 0);
    assert_int_equal(stats_binomial_error_x100(1, 0), 0);
    /* 1/3 of 2400: sqrt(2/9 / 2400) = 0.962 % -> 96 */
    assert_int_equal(stats_binomial_error_x100(800, 2400), 96);
}

static void test_time_and_its_period(void **state)
{
    (void)state;
    struct sample_spec spec;
    struct pmu_eventsel sel;
    char err[200];
    assert_null(sample_spec_parse("time", NULL, &spec, &sel, err, sizeof err));
    assert_int_equal(spec.source, SAMPLE_TIME);
    assert_int_equal(spec.period, SAMPLE_DEFAULT_US);
    assert_null(sample_spec_parse("time:250", NULL, &spec, &sel, err, sizeof err));
    assert_int_equal(spec.period, 250);
    assert_non_null(sample_spec_parse("time:0", NULL, &spec, &sel, err, sizeof err));
    assert_int_equal(spec.source, SAMPLE_OFF);
    assert_non_null(sample_spec_parse("time:nmi", NULL, &spec, &sel, err, sizeof err));
    assert_non_null(strstr(err, "not the timer"));
    /* No counters: an event is refused with the way out. */
    assert_non_null(sample_spec_parse("INST_RETIRED.ANY_P", NULL, &spec, &sel, err, sizeof err));
    assert_non_null(strstr(err, "sample=time works on any CPU"));
    assert_null(sample_spec_parse("", NULL, &spec, &sel, err, sizeof err));
    assert_int_equal(spec.source, SAMPLE_OFF);
}

static void test_events_periods_and_raw_codes(void **state)
{
    (void)state;
    static struct msr_sim sim;
    static struct pmu_driver d;
    assert_int_equal(sim_bind_arch_v4(&sim, &d), 0);
    struct sample_spec spec;
    struct pmu_eventsel sel;
    char err[200];
    assert_null(sample_spec_parse("INST_RETIRED.ANY_P:1009", &d, &spec, &sel, err, sizeof err));
    assert_int_equal(spec.source, SAMPLE_EVENT);
    assert_int_equal(spec.period, 1009);
    assert_int_equal(sel.code, 0xC0);
    assert_ptr_equal(spec.sel, &sel);
    assert_false(spec.nmi);
    /* A raw code's own colon is the unit mask (hex), the decimal tail the period. */
    assert_null(sample_spec_parse("0x2e:0x41:101:nmi", &d, &spec, &sel, err, sizeof err));
    assert_int_equal(sel.code, 0x2e);
    assert_int_equal(sel.umask, 0x41);
    assert_int_equal(spec.period, 101);
    assert_true(spec.nmi);
    assert_null(sample_spec_parse("0x2e:0x41", &d, &spec, &sel, err, sizeof err));
    assert_int_equal(spec.period, SAMPLE_DEFAULT_PERIOD);
    assert_non_null(sample_spec_parse("NO_SUCH_EVENT:5", &d, &spec, &sel, err, sizeof err));
    assert_non_null(strstr(err, "'NO_SUCH_EVENT'"));
    assert_int_equal(spec.source, SAMPLE_OFF);
    assert_non_null(sample_spec_parse("INST_RETIRED.ANY_P:0", &d, &spec, &sel, err, sizeof err));
    assert_non_null(strstr(err, "1 to 2147483647 events"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_and_copies),
        cmocka_unit_test(test_profile_counts_each_place),
        cmocka_unit_test(test_share_error_is_binomial),
        cmocka_unit_test(test_time_and_its_period),
        cmocka_unit_test(test_events_periods_and_raw_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
