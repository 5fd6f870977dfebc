/* Each driver against the simulated MSR file of its family: the exact bits
 * written, counting, wrap-around, #GP on missing MSRs, save/restore. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "platform/fault.h"
#include "pmu/pmu.h"
#include "support/msr_sim.h"

static struct cpu_info cpu_of(enum cpu_vendor v, unsigned family, unsigned model, bool mmx)
{
    struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_CPUID;
    c.vendor = v;
    c.family = family;
    c.model = model;
    c.features[FW_1_EDX] = (1u << 4) | (1u << 5) | (mmx ? 1u << 23 : 0);
    return c;
}

static struct cpu_info arch_cpu(unsigned version, unsigned gp, unsigned width, unsigned fixed)
{
    struct cpu_info c = cpu_of(VENDOR_INTEL, 6, 0x5E, true);
    c.perfmon.version = version;
    c.perfmon.gp_counters = gp;
    c.perfmon.gp_width = width;
    c.perfmon.fixed_counters = fixed;
    c.perfmon.fixed_width = width;
    return c;
}

static uint64_t reg(struct msr_sim *s, uint32_t msr)
{
    uint64_t v = 0;
    assert_true(sim_get(s, msr, &v));
    return v;
}

static struct pmu_eventsel sel(uint16_t code, uint8_t umask, uint8_t flags)
{
    struct pmu_eventsel e = { 0 };
    e.code = code;
    e.umask = umask;
    e.flags = flags;
    return e;
}

/* ---- P5 ---- */

static void test_p5_cesr_bits_and_counting(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 5, 2, false);
    sim_init_p5(&s, false);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&s));

    struct pmu_eventsel insn = sel(0x16, 0, PMU_OS);
    /* Nothing is written before it is saved. */
    assert_int_equal(pmu_program(&d, 0, &insn), PMU_ERR_NOT_SAVED);
    assert_int_equal(s.writes, 0);

    assert_int_equal(pmu_save(&d), 0);
    assert_int_equal(pmu_program(&d, 0, &insn), 0);
    assert_int_equal(reg(&s, 0x11), 0x56); /* 16h | CPL0-2 */
    struct pmu_eventsel clocks = sel(0x16, 0, PMU_OS | PMU_USR | PMU_DURATION);
    assert_int_equal(pmu_program(&d, 1, &clocks), 0);
    /* Counter 1 in bits 16-31: 16h | 40h | 80h | 100h = 1D6h. */
    assert_int_equal(reg(&s, 0x11), 0x01D60056);

    uint64_t i0, c0, i1, c1;
    assert_int_equal(pmu_read(&d, 0, &i0), 0);
    assert_int_equal(pmu_read(&d, 1, &c0), 0);
    sim_run(&s, 1000, 700, 50);
    assert_int_equal(pmu_read(&d, 0, &i1), 0);
    assert_int_equal(pmu_read(&d, 1, &c1), 0);
    assert_int_equal(pmu_delta(i0, i1, 40), 1000);
    assert_int_equal(pmu_delta(c0, c1, 40), 700);

    /* OS-only does not count ring 3. */
    s.cpl = 3;
    sim_run(&s, 500, 500, 0);
    assert_int_equal(pmu_read(&d, 0, &i0), 0);
    assert_int_equal(i0, i1);

    /* Stop: CESR 0; restore: the saved (zero) values, and they read back. */
    assert_int_equal(pmu_stop(&d), 0);
    assert_int_equal(reg(&s, 0x11), 0);
    assert_int_equal(pmu_restore(&d), 0);
    struct pmu_restore_check chk;
    assert_int_equal(pmu_verify_restore(&d, &chk), 0);
    assert_int_equal(chk.checked, 3);
}

static void test_p5_wrap_and_restrictions(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 5, 4, true);
    sim_init_p5(&s, true);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);

    /* 40-bit wrap: start 100 below 2^40. */
    sim_set(&s, 0x12, (1ull << 40) - 100);
    struct pmu_eventsel insn = sel(0x16, 0, 0);
    assert_int_equal(pmu_program(&d, 0, &insn), 0);
    uint64_t a, b;
    pmu_read(&d, 0, &a);
    sim_run(&s, 250, 300, 0);
    pmu_read(&d, 0, &b);
    assert_int_equal(b, 150);
    assert_int_equal(pmu_delta(a, b, 40), 250);

    /* Counter-specific P55C events; no unit masks on the P5; 6-bit codes. */
    const struct pmu_event *e = pmu_event_find(&d, "CYCLES_NOT_IN_HALT");
    assert_non_null(e);
    struct pmu_eventsel cyc = pmu_eventsel_of(e);
    assert_int_equal(pmu_program(&d, 1, &cyc), PMU_ERR_EVENT);
    assert_int_equal(pmu_program(&d, 0, &cyc), 0);
    assert_int_equal(reg(&s, 0x11) & 0xffff, 0x1F0); /* 30h | 40h | 80h | 100h */
    struct pmu_eventsel bad = sel(0x16, 0x01, 0);
    assert_int_equal(pmu_program(&d, 1, &bad), PMU_ERR_EVENT);
    bad = sel(0x40, 0, 0);
    assert_int_equal(pmu_program(&d, 1, &bad), PMU_ERR_EVENT);
    assert_int_equal(pmu_program(&d, 2, &insn), PMU_ERR_COUNTER);

    /* Restore puts CTR0 back at its saved value (0), exactly (40-bit writes). */
    assert_int_equal(pmu_restore(&d), 0);
    assert_int_equal(reg(&s, 0x12), 0);
    assert_int_equal(pmu_verify_restore(&d, NULL), 0);
}

/* ---- P6 ---- */

static void test_p6_enable_bit_and_counting(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 6, 5, true);
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);

    /* Counter 1 alone: PerfEvtSel1 without EN, PerfEvtSel0 = EN only. */
    struct pmu_eventsel cyc = sel(0x79, 0, PMU_OS | PMU_USR);
    assert_int_equal(pmu_program(&d, 1, &cyc), 0);
    assert_int_equal(reg(&s, 0x187), 0x00030079);
    assert_int_equal(reg(&s, 0x186), 0x00400000);
    sim_run(&s, 100, 333, 0);
    assert_int_equal(reg(&s, 0xC2), 333);
    assert_int_equal(reg(&s, 0xC1), 0); /* counter 0 selected nothing */

    struct pmu_eventsel insn = sel(0xC0, 0, PMU_OS);
    assert_int_equal(pmu_program(&d, 0, &insn), 0);
    assert_int_equal(reg(&s, 0x186), 0x004200C0); /* EN | OS | C0h */
    sim_run(&s, 1000, 2000, 10);
    uint64_t v;
    pmu_read(&d, 0, &v);
    assert_int_equal(v, 1000);
    pmu_read(&d, 1, &v);
    assert_int_equal(v, 2333);

    /* Raw code with unit mask, cmask, edge and invert. */
    struct pmu_eventsel raw = sel(0x2E, 0x0F, PMU_USR | PMU_EDGE | PMU_INV);
    raw.cmask = 2;
    assert_int_equal(pmu_program(&d, 1, &raw), 0);
    assert_int_equal(reg(&s, 0x187), 0x02850F2E);

    /* Counter-specific events. */
    struct pmu_eventsel mul = pmu_eventsel_of(pmu_event_find(&d, "MUL"));
    assert_int_equal(pmu_program(&d, 0, &mul), PMU_ERR_EVENT);
    assert_int_equal(pmu_program(&d, 1, &mul), 0);

    assert_int_equal(pmu_stop(&d), 0);
    assert_int_equal(reg(&s, 0x186), 0);
}

static void test_p6_wrap_and_sign_extended_restore(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 6, 8, true);
    sim_init_p6(&s);
    /* Before us: counter 0 holds a value above 2^32 that a 32-bit
     * sign-extended write cannot reproduce; counter 1 one it can. */
    sim_set(&s, 0xC1, 0x12345678ull << 4);
    sim_set(&s, 0xC2, 0xFFFFFFFFF0ull);
    pmu_bind(&d, PMU_P6, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);

    struct pmu_eventsel insn = sel(0xC0, 0, 0);
    struct pmu_eventsel cyc = sel(0x79, 0, 0);
    pmu_program(&d, 0, &insn);
    pmu_program(&d, 1, &cyc);
    uint64_t a, b;
    pmu_read(&d, 1, &a);
    assert_int_equal(a, 0xFFFFFFFFF0ull);
    sim_run(&s, 10, 0x30, 0);
    pmu_read(&d, 1, &b);
    assert_int_equal(b, 0x20); /* wrapped at 2^40 */
    assert_int_equal(pmu_delta(a, b, 40), 0x30);

    assert_int_equal(pmu_restore(&d), 0);
    struct pmu_restore_check chk;
    assert_int_equal(pmu_verify_restore(&d, &chk), 0);
    assert_int_equal(chk.inexact, 1);          /* counter 0: only bits 31:0 come back */
    assert_int_equal(reg(&s, 0xC1), 0x23456780ull);
    assert_int_equal(reg(&s, 0xC2), 0xFFFFFFFFF0ull); /* sign extension restores it exactly */
}

static void test_p6_driver_on_p5_faults(void **state)
{
    (void)state;
    /* The wrong driver for the family: every P6 MSR #GPs on a P5. */
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 6, 5, true);
    sim_init_p5(&s, true);
    pmu_bind(&d, PMU_P6, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), FAULT_CODE(13));
    assert_false(d.saved_done);
    struct pmu_eventsel insn = sel(0xC0, 0, 0);
    assert_int_equal(pmu_program(&d, 0, &insn), PMU_ERR_NOT_SAVED);
    assert_int_equal(pmu_restore(&d), PMU_ERR_NOT_SAVED);
    uint64_t v;
    assert_int_equal(pmu_read(&d, 0, &v), FAULT_CODE(13));
    assert_int_equal(d.last_msr, 0xC1);
    assert_int_equal(s.writes, 0);
}

/* ---- Intel architectural ---- */

static void test_arch_v4_fixed_and_global(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = arch_cpu(4, 4, 48, 3);
    sim_init_arch(&s, 4, 4, 48, 3, 48);
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    assert_int_equal(d.nsaved, 4 + 3 + 4 + 2);

    struct pmu_eventsel insn = sel(0xC0, 0, 0);
    assert_int_equal(pmu_program(&d, 0, &insn), 0);
    assert_int_equal(reg(&s, 0x186), 0x004300C0);
    assert_int_equal(reg(&s, 0x38F), 0x1); /* only our counter */

    /* Fixed counters: 4-bit fields, OS=1 USR=2; GLOBAL_CTRL bits 32+. */
    struct pmu_eventsel fi = pmu_eventsel_of(pmu_event_find(&d, "INST_RETIRED.ANY"));
    struct pmu_eventsel fc = pmu_eventsel_of(pmu_event_find(&d, "CPU_CLK_UNHALTED.THREAD"));
    struct pmu_eventsel fr = pmu_eventsel_of(pmu_event_find(&d, "CPU_CLK_UNHALTED.REF_TSC"));
    fc.flags = PMU_OS;
    assert_int_equal(pmu_program(&d, PMU_FIXED(0), &fi), 0);
    assert_int_equal(pmu_program(&d, PMU_FIXED(1), &fc), 0);
    assert_int_equal(pmu_program(&d, PMU_FIXED(2), &fr), 0);
    assert_int_equal(reg(&s, 0x38D), 0x313);
    assert_int_equal(reg(&s, 0x38F), 0x700000001ull);
    /* A fixed counter counts only its own event. */
    assert_int_equal(pmu_program(&d, PMU_FIXED(0), &fc), PMU_ERR_EVENT);
    /* The REF_TSC pseudo code cannot go on a general counter. */
    assert_int_equal(pmu_program(&d, 1, &fr), PMU_ERR_EVENT);
    assert_int_equal(pmu_program(&d, PMU_FIXED(3), &fi), PMU_ERR_COUNTER);

    sim_run(&s, 5000, 4000, 100);
    uint64_t v;
    pmu_read(&d, 0, &v);
    assert_int_equal(v, 5000);
    pmu_read(&d, PMU_FIXED(0), &v);
    assert_int_equal(v, 5000);
    pmu_read(&d, PMU_FIXED(1), &v);
    assert_int_equal(v, 4000);
    pmu_read(&d, PMU_FIXED(2), &v);
    assert_int_equal(v, 4000);

    /* Without its GLOBAL_CTRL bit a counter does not count. */
    sim_set(&s, 0x38F, 0x600000001ull);
    sim_run(&s, 10, 10, 0);
    pmu_read(&d, PMU_FIXED(0), &v);
    assert_int_equal(v, 5000);

    /* Restore: GLOBAL_CTRL back to its post-RESET value (general bits set),
     * the rest back to 0; everything reads back. */
    assert_int_equal(pmu_restore(&d), 0);
    assert_int_equal(reg(&s, 0x38F), 0xF);
    assert_int_equal(reg(&s, 0x38D), 0);
    assert_int_equal(reg(&s, 0x186), 0);
    assert_int_equal(reg(&s, 0xC1), 0);
    assert_int_equal(reg(&s, 0x309), 0);
    assert_int_equal(pmu_verify_restore(&d, NULL), 0);
}

static void test_arch_width_wrap_and_full_width_restore(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = arch_cpu(3, 4, 48, 3);
    c.features[FW_1_ECX] |= 1u << 15; /* PDCM */
    sim_init_arch(&s, 3, 4, 48, 3, 48);
    s.has_caps = true;
    s.full_width = true;
    sim_set(&s, 0xC1, 0x123456789ABCull);
    sim_set(&s, 0x30A, 0xFFFFFFFFFFF0ull);
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    assert_true(d.full_width_write);
    assert_int_equal(pmu_save(&d), 0);

    struct pmu_eventsel fc = pmu_eventsel_of(&pmu_events_arch_fixed[1]);
    pmu_program(&d, PMU_FIXED(1), &fc);
    uint64_t a, b;
    pmu_read(&d, PMU_FIXED(1), &a);
    sim_run(&s, 1, 0x20, 0);
    pmu_read(&d, PMU_FIXED(1), &b);
    assert_int_equal(b, 0x10);
    assert_int_equal(pmu_delta(a, b, 48), 0x20);

    /* Full-width writes through IA32_A_PMC0 restore a 48-bit value exactly. */
    struct pmu_eventsel insn = sel(0xC0, 0, 0);
    pmu_program(&d, 0, &insn);
    sim_run(&s, 77, 0, 0);
    assert_int_equal(pmu_restore(&d), 0);
    struct pmu_restore_check chk;
    assert_int_equal(pmu_verify_restore(&d, &chk), 0);
    assert_int_equal(chk.inexact, 0);
    assert_int_equal(reg(&s, 0xC1), 0x123456789ABCull);
    assert_int_equal(reg(&s, 0x30A), 0xFFFFFFFFFFF0ull);

    /* A CPUID width of 40 wraps at 2^40. */
    assert_int_equal(pmu_delta(0xFFFFFFFFF0ull, 0x5, 40), 0x15);
    assert_int_equal(pmu_delta(5, 2, 64), (uint64_t)-3);
}

static void test_arch_v1_has_no_global(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = arch_cpu(1, 2, 40, 0);
    sim_init_arch(&s, 1, 2, 40, 0, 0);
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    assert_int_equal(d.nsaved, 4);
    struct pmu_eventsel insn = sel(0xC0, 0, 0);
    assert_int_equal(pmu_program(&d, 0, &insn), 0);
    assert_int_equal(s.faults, 0); /* 0x38F never touched */
    sim_run(&s, 42, 0, 0);
    uint64_t v;
    pmu_read(&d, 0, &v);
    assert_int_equal(v, 42);
    /* The MSRs of a v2 PMU #GP here. */
    uint64_t x;
    assert_int_equal(sim_ops(&s)->read(&s, 0x38F, &x), FAULT_CODE(13));
    assert_int_equal(sim_ops(&s)->read(&s, 0x309, &x), FAULT_CODE(13));
    assert_int_equal(pmu_restore(&d), 0);
}

static void test_arch_running_counter_survives(void **state)
{
    (void)state;
    /* Firmware left counter 3 counting cycles: after our restore it goes
     * on counting; the check accepts forward movement, flags it "moving". */
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = arch_cpu(2, 4, 48, 3);
    sim_init_arch(&s, 2, 4, 48, 3, 48);
    sim_set(&s, 0x189, 0x0043003C);
    sim_set(&s, 0xC4, 1000);
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    struct pmu_eventsel insn = sel(0xC0, 0, 0);
    pmu_program(&d, 0, &insn);
    sim_run(&s, 10, 10, 0);
    assert_int_equal(reg(&s, 0xC4), 1000); /* ours only while we measure */
    assert_int_equal(pmu_restore(&d), 0);
    sim_run(&s, 10, 25, 0);
    struct pmu_restore_check chk;
    assert_int_equal(pmu_verify_restore(&d, &chk), 0);
    assert_int_equal(chk.moving, 1);
    assert_int_equal(reg(&s, 0x189), 0x0043003C);

    /* A control MSR that changed is a mismatch, with the evidence. */
    sim_set(&s, 0x186, 0x1234);
    assert_int_equal(pmu_verify_restore(&d, &chk), 1);
    assert_int_equal(chk.first_msr, 0x186);
    assert_int_equal(chk.first_expected, 0);
    assert_int_equal(chk.first_actual, 0x1234);
}

/* ---- AMD ---- */

static void test_amd_legacy_and_core(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_AMD, 6, 2, true);
    sim_init_amd(&s, false);
    pmu_bind(&d, PMU_AMD, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    struct pmu_eventsel insn = pmu_eventsel_of(pmu_event_find(&d, "retired_instructions"));
    struct pmu_eventsel cyc = sel(0x76, 0, PMU_OS);
    assert_int_equal(pmu_program(&d, 3, &insn), 0);
    assert_int_equal(pmu_program(&d, 1, &cyc), 0);
    assert_int_equal(reg(&s, 0xC0010003u), 0x004300C0);
    assert_int_equal(reg(&s, 0xC0010001u), 0x00420076);
    sim_set(&s, 0xC0010007u, (1ull << 48) - 5);
    uint64_t a, b;
    pmu_read(&d, 3, &a);
    sim_run(&s, 20, 30, 0);
    pmu_read(&d, 3, &b);
    assert_int_equal(b, 15);
    assert_int_equal(pmu_delta(a, b, 48), 20);
    pmu_read(&d, 1, &b);
    assert_int_equal(b, 30);
    /* 12-bit codes need family 10h+. */
    struct pmu_eventsel wide = sel(0x1C0, 0, 0);
    assert_int_equal(pmu_program(&d, 0, &wide), PMU_ERR_EVENT);
    /* The family-15h core MSRs do not exist on a K7. */
    uint64_t x;
    assert_int_equal(sim_ops(&s)->read(&s, 0xC0010200u, &x), FAULT_CODE(13));
    assert_int_equal(pmu_restore(&d), 0);
    assert_int_equal(pmu_verify_restore(&d, NULL), 0);

    c = cpu_of(VENDOR_AMD, 0x17, 0x71, true);
    c.features[FW_X1_ECX] |= 1u << 23;
    sim_init_amd(&s, true);
    pmu_bind(&d, PMU_AMD, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    assert_int_equal(d.nsaved, 12);
    assert_int_equal(pmu_program(&d, 5, &insn), 0);
    assert_int_equal(reg(&s, 0xC001020Au), 0x004300C0);
    assert_int_equal(pmu_program(&d, 4, &wide), 0);
    assert_int_equal(reg(&s, 0xC0010208u), 0x1004300C0ull); /* EventSelect[11:8] in bits 35:32 */
    sim_run(&s, 64, 0, 0);
    pmu_read(&d, 5, &b);
    assert_int_equal(b, 64);
    assert_int_equal(reg(&s, 0xC001020Bu), 64);
    assert_int_equal(pmu_restore(&d), 0);
    assert_int_equal(pmu_verify_restore(&d, NULL), 0);
}

static void test_amd_perfmon_v2_global(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_AMD, 0x19, 0x61, true);
    c.features[FW_X1_ECX] |= 1u << 23;
    c.max_ext_leaf = 0x80000028;
    c.raw[0].leaf = 0x80000022;
    c.raw[0].r = (struct cpuid_regs){ 1, 6, 0, 0 };
    c.nraw = 1;
    sim_init_amd(&s, true);
    s.version = 2;
    s.global_ctrl = 0x3F;
    pmu_bind(&d, PMU_AMD, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    struct pmu_eventsel insn = sel(0xC0, 0, 0);
    pmu_program(&d, 2, &insn);
    assert_int_equal(reg(&s, 0xC0000301u), 0x4);
    sim_run(&s, 9, 9, 9);
    uint64_t v;
    pmu_read(&d, 2, &v);
    assert_int_equal(v, 9);
    assert_int_equal(pmu_restore(&d), 0);
    assert_int_equal(reg(&s, 0xC0000301u), 0x3F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p5_cesr_bits_and_counting),
        cmocka_unit_test(test_p5_wrap_and_restrictions),
        cmocka_unit_test(test_p6_enable_bit_and_counting),
        cmocka_unit_test(test_p6_wrap_and_sign_extended_restore),
        cmocka_unit_test(test_p6_driver_on_p5_faults),
        cmocka_unit_test(test_arch_v4_fixed_and_global),
        cmocka_unit_test(test_arch_width_wrap_and_full_width_restore),
        cmocka_unit_test(test_arch_v1_has_no_global),
        cmocka_unit_test(test_arch_running_counter_survives),
        cmocka_unit_test(test_amd_legacy_and_core),
        cmocka_unit_test(test_amd_perfmon_v2_global),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
