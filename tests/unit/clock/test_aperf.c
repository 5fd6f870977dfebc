/* The real clock (kernel/harness/aperf.c) on the simulated MSR file: which
 * CPUs may read IA32_APERF/IA32_MPERF, per-body cycles from the U/2U
 * difference (the reads and the loop cancel), the effective frequency and a
 * frequency change inside one measurement. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "clock/aperf.h"
#include "msr_sim.h"

#define LOOPS 10
#define UNROLL 4
#define BODY_CYCLES 3
#define OVERHEAD_CYCLES 432 /* the reads, the call and the loop: must cancel */
#define TSC_HZ 3000000000ull

static struct cpu_info cpu_with_leaf6(uint32_t ecx)
{
    struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_CPUID;
    c.vendor = VENDOR_INTEL;
    c.family = 6;
    c.features[FW_1_EDX] = 1u << 5; /* MSR */
    c.raw[0].leaf = 6;
    c.raw[0].r.ecx = ecx;
    c.nraw = 1;
    return c;
}

static void sim_with_clock(struct msr_sim *s, uint32_t num, uint32_t den)
{
    sim_init_arch(s, 4, 4, 48, 3, 48);
    s->aperf = true;
    s->aperf_v = 123456789; /* any start value: only differences count */
    s->mperf_v = 987654321;
    s->mperf_num = num;
    s->mperf_den = den;
}

/* n samples as measure.c takes them: U copies, then 2U, the clock around each. */
static void take(struct msr_sim *s, uint32_t from, uint32_t n)
{
    for (uint32_t i = from; i < from + n; i++) {
        for (unsigned v = 0; v < 2; v++) {
            aperf_before();
            sim_run(s, 0, OVERHEAD_CYCLES + (uint64_t)(v + 1) * UNROLL * LOOPS * BODY_CYCLES, 0);
            aperf_after(i, v);
        }
    }
}

static void absent_without_the_cpuid_bit(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    struct cpu_info c = cpu_with_leaf6(0);
    aperf_probe(&c, sim_ops(&s));
    assert_false(aperf.usable);
    assert_string_equal(aperf.why, "CPUID.06H:ECX[0] is clear: no IA32_APERF/IA32_MPERF");
    assert_int_equal(s.reads, 0); /* not even tried */
    struct aperf_result r;
    aperf_finish(9, 40, TSC_HZ, &r);
    assert_false(r.have);
    assert_string_equal(r.why, aperf.why);
}

static void absent_when_the_read_faults(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_init_arch(&s, 4, 4, 48, 3, 48); /* the CPU says APERF, the MSR faults (a hypervisor) */
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    assert_false(aperf.usable);
    assert_string_equal(aperf.why, "IA32_MPERF (0xE7) faults or cannot be read here");
    assert_int_not_equal(aperf.fault, 0);
    assert_int_equal(s.last_fault_msr, 0xE7);
}

static void absent_without_msrs(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    struct cpu_info c = cpu_with_leaf6(1);
    c.features[FW_1_EDX] = 0;
    aperf_probe(&c, sim_ops(&s));
    assert_false(aperf.usable);
    assert_string_equal(aperf.why, "no MSRs (CPUID.1:EDX.MSR clear)");
}

static void counts_body_cycles_at_tsc_rate(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    assert_true(aperf.usable);
    aperf_start();
    take(&s, 0, 9);
    struct aperf_result r;
    aperf_finish(9, UNROLL * LOOPS, TSC_HZ, &r);
    assert_true(r.have);
    assert_int_equal(r.cycles_x100, BODY_CYCLES * 100);
    assert_true(r.freq_known);
    assert_int_equal(r.freq_mhz, 3000);
    assert_false(r.freq_changed);
}

static void turbo_frequency_from_the_ratio(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 3, 4); /* MPERF advances 3 for 4 core cycles: 4 GHz on a 3 GHz TSC */
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    aperf_start();
    take(&s, 0, 9);
    struct aperf_result r;
    aperf_finish(9, UNROLL * LOOPS, TSC_HZ, &r);
    assert_int_equal(r.cycles_x100, BODY_CYCLES * 100); /* cycles do not depend on the clock */
    assert_int_equal(r.freq_mhz, 4000);
    assert_int_equal(r.freq_lo_mhz, 4000);
    assert_int_equal(r.freq_hi_mhz, 4000);
    assert_false(r.freq_changed);
}

static void frequency_change_is_flagged(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    aperf_start();
    take(&s, 0, 6);
    s.mperf_num = 3; /* the last third at 4 GHz */
    s.mperf_den = 4;
    take(&s, 6, 3);
    struct aperf_result r;
    aperf_finish(9, UNROLL * LOOPS, TSC_HZ, &r);
    assert_int_equal(r.cycles_x100, BODY_CYCLES * 100);
    assert_int_equal(r.freq_lo_mhz, 3000);
    assert_int_equal(r.freq_hi_mhz, 4000);
    assert_true(r.freq_changed);
}

/* The last third at 3000 * den / num MHz: flagged only beyond 1 %. */
static void last_third_at(uint32_t num, uint32_t den, struct aperf_result *r)
{
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    aperf_start();
    take(&s, 0, 20);
    s.mperf_num = num;
    s.mperf_den = den;
    take(&s, 20, 10);
    aperf_finish(30, UNROLL * LOOPS, TSC_HZ, r);
}

static void one_percent_is_the_threshold(void **state)
{
    (void)state;
    struct aperf_result r;
    last_third_at(200, 201, &r); /* 0.5 % faster */
    assert_int_equal(r.freq_lo_mhz, 3000);
    assert_int_equal(r.freq_hi_mhz, 3015);
    assert_false(r.freq_changed);
    last_third_at(100, 102, &r); /* 2 % faster */
    assert_int_equal(r.freq_hi_mhz, 3060);
    assert_true(r.freq_changed);
    last_third_at(102, 100, &r); /* 2 % slower */
    assert_int_equal(r.freq_lo_mhz, 2941);
    assert_int_equal(r.freq_hi_mhz, 3000);
    assert_true(r.freq_changed);
}

static void a_dead_clock_is_refused(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    s.mode = SIM_DEAD; /* reads 0 and never advances, like an emulator */
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    assert_true(aperf.usable);
    aperf_start();
    take(&s, 0, 9);
    struct aperf_result r;
    aperf_finish(9, UNROLL * LOOPS, TSC_HZ, &r);
    assert_false(r.have);
    assert_string_equal(r.why, "IA32_APERF did not advance (an emulator that reads it as a constant?)");
}

static void a_failed_read_drops_the_measurement(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    aperf_start();
    take(&s, 0, 4);
    s.mode = SIM_GP;
    take(&s, 4, 5);
    struct aperf_result r;
    aperf_finish(9, UNROLL * LOOPS, TSC_HZ, &r);
    assert_false(r.have);
    assert_string_equal(r.why, "an APERF/MPERF read failed during the samples");
}

static void unknown_tsc_rate_gives_cycles_without_frequency(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_with_clock(&s, 1, 1);
    struct cpu_info c = cpu_with_leaf6(1);
    aperf_probe(&c, sim_ops(&s));
    aperf_start();
    take(&s, 0, 9);
    struct aperf_result r;
    aperf_finish(9, UNROLL * LOOPS, 0, &r);
    assert_true(r.have);
    assert_int_equal(r.cycles_x100, BODY_CYCLES * 100);
    assert_false(r.freq_known);
}

static void estimate_check_at_two_percent(void **state)
{
    (void)state;
    assert_false(aperf_disagrees(300, 306)); /* 2 %: agrees */
    assert_true(aperf_disagrees(300, 307));
    assert_false(aperf_disagrees(300, 294));
    assert_true(aperf_disagrees(300, 293));
    assert_false(aperf_disagrees(0, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(absent_without_the_cpuid_bit),
        cmocka_unit_test(absent_when_the_read_faults),
        cmocka_unit_test(absent_without_msrs),
        cmocka_unit_test(counts_body_cycles_at_tsc_rate),
        cmocka_unit_test(turbo_frequency_from_the_ratio),
        cmocka_unit_test(frequency_change_is_flagged),
        cmocka_unit_test(one_percent_is_the_threshold),
        cmocka_unit_test(a_dead_clock_is_refused),
        cmocka_unit_test(a_failed_read_drops_the_measurement),
        cmocka_unit_test(unknown_tsc_rate_gives_cycles_without_frequency),
        cmocka_unit_test(estimate_check_at_two_percent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
