/* Counter overflow interrupts for sampling (pmu/pmu_overflow.c), on the
 * simulated MSR file: the exact bits an armed counter gets (the INT bit and
 * a -N preload on architectural perfmon; the P5's pin control flag, its
 * 40-bit preload and a CESR written only at the enable), and the refusals
 * that say why a driver cannot interrupt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "pmu/pmu_overflow.h"
#include "support/msr_sim.h"
#include "support/sim_arch.h"

static uint64_t reg(struct msr_sim *s, uint32_t msr)
{
    uint64_t v = 0;
    assert_true(sim_get(s, msr, &v));
    return v;
}

static struct pmu_eventsel sel(uint16_t code, uint8_t flags)
{
    struct pmu_eventsel e = { 0 };
    e.code = code;
    e.flags = flags;
    return e;
}

static void test_arch_counter_armed_to_interrupt(void **state)
{
    (void)state;
    static struct msr_sim s;
    static struct pmu_driver d;
    assert_int_equal(sim_bind_arch_v4(&s, &d), 0);
    assert_null(pmu_overflow_refusal(&d, false));
    assert_null(pmu_overflow_refusal(&d, true));
    struct pmu_eventsel insn = sel(0xC0, PMU_OS | PMU_USR);
    assert_int_equal(pmu_overflow_enable(&d, 0), 0);
    assert_int_equal(pmu_overflow_program(&d, 0, &insn, true), 0);
    /* EN (22), INT (20), OS (17), USR (16), event C0h. */
    assert_int_equal(reg(&s, 0x186), (1u << 22) | (1u << 20) | (1u << 17) | (1u << 16) | 0xC0);
    assert_int_equal(pmu_overflow_program(&d, 1, &insn, false), 0);
    assert_int_equal(reg(&s, 0x187) & (1u << 20), 0);
    assert_int_equal(pmu_overflow_load(&d, 0, 997), 0);
    assert_int_equal(reg(&s, 0xC1), (0 - 997ull) & ((1ull << 48) - 1));
    assert_int_equal(reg(&s, 0x38F), 0);   /* armed, not counting */
    uint32_t msr;
    uint64_t value;
    pmu_overflow_enable_write(&d, 1, &msr, &value);
    assert_int_equal(msr, 0x38F);
    assert_int_equal(value, 1);
    assert_int_equal(pmu_overflow_enable(&d, 1), 0);
    assert_int_equal(reg(&s, 0x38F), 1);
    /* 997 instructions later it has wrapped to 0. */
    sim_run(&s, 997, 997, 0);
    assert_int_equal(reg(&s, 0xC1), 0);
    assert_true(pmu_overflow_one_per_instruction(&d, &insn));
    struct pmu_eventsel br = sel(0xC4, 0), cyc = sel(0x3C, 0);
    assert_true(pmu_overflow_one_per_instruction(&d, &br));
    assert_false(pmu_overflow_one_per_instruction(&d, &cyc));
}

static void test_refusals_say_why(void **state)
{
    (void)state;
    struct pmu_driver d;
    memset(&d, 0, sizeof d);
    d.kind = PMU_ARCH;
    d.version = 1;
    d.gp_counters = 2;
    assert_non_null(strstr(pmu_overflow_refusal(&d, false), "version 1"));
    d.version = 2;
    d.gp_counters = 1;
    assert_non_null(strstr(pmu_overflow_refusal(&d, false), "fewer than two"));
    d.kind = PMU_AMD;
    assert_non_null(strstr(pmu_overflow_refusal(&d, false), "not this driver"));
    d.kind = PMU_P5;
    const char *why = pmu_overflow_refusal(&d, false);
    assert_non_null(strstr(why, "EBS socket"));
    assert_non_null(strstr(why, "cannot take counter interrupts"));
    assert_non_null(strstr(why, ":nmi"));
    assert_null(pmu_overflow_refusal(&d, true));
}

static void test_p5_pin_signals_the_overflow(void **state)
{
    (void)state;
    static struct msr_sim s;
    static struct pmu_driver d;
    static struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_CPUID;
    c.vendor = VENDOR_INTEL;
    c.family = 5;
    c.model = 2;
    c.features[FW_1_EDX] = (1u << 4) | (1u << 5);
    sim_init_p5(&s, false);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    struct pmu_eventsel insn = sel(0x16, PMU_OS | PMU_USR);
    unsigned writes = s.writes;
    assert_int_equal(pmu_overflow_program(&d, 0, &insn, true), 0);
    assert_int_equal(s.writes, writes);        /* CESR's CC bits would start it: not yet */
    assert_int_equal(pmu_overflow_load(&d, 0, 100), 0);
    assert_int_equal(reg(&s, 0x12), (1ull << 40) - 100);
    assert_int_equal(pmu_overflow_ack(&d, 1), 0);
    uint64_t status;
    assert_int_equal(pmu_overflow_status(&d, &status), PMU_ERR_KIND);
    assert_int_equal(pmu_overflow_enable(&d, 1), 0);
    /* ES0 16h, CC0 011 (every CPL), PC0 (bit 9): PM0 asserted on overflow. */
    assert_int_equal(reg(&s, 0x11), 0x16 | 0x40 | 0x80 | 0x200);
    sim_run(&s, 100, 100, 0);
    assert_int_equal(reg(&s, 0x12), 0);
    assert_int_equal(pmu_overflow_enable(&d, 0), 0);
    assert_int_equal(reg(&s, 0x11), 0);
    assert_true(pmu_overflow_one_per_instruction(&d, &insn));
    struct pmu_eventsel clocks = sel(0x16, PMU_DURATION);
    assert_false(pmu_overflow_one_per_instruction(&d, &clocks));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arch_counter_armed_to_interrupt),
        cmocka_unit_test(test_refusals_say_why),
        cmocka_unit_test(test_p5_pin_signals_the_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
