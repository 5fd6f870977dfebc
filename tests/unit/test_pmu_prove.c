/* Proof before trust, both ways: counting drivers pass, dead (TCG-like),
 * faulting (hypervisor-like), frozen and wild counters fail with evidence;
 * what reading the counters costs cancels in the difference. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "platform/fault.h"
#include "pmu/pmu_prove.h"
#include "support/msr_sim.h"

/* insn, cycles, branches: what each time over retires; the call around the
 * loop retires the same fixed amount at either length; `noise` instructions
 * arrive once, in the call numbered noise_at (an interrupt, an SMI). */
struct fake_work {
    struct msr_sim *sim;
    uint64_t insn, cycles, branches;
    int calls;
    int noise_at;
    uint64_t noise;
};

#define CALL_INSNS 37
#define CALL_CYCLES 60
#define CALL_BRANCHES 3

static void run_fake(void *arg, unsigned times)
{
    struct fake_work *f = arg;
    uint64_t extra = ++f->calls == f->noise_at ? f->noise : 0;
    sim_run(f->sim, CALL_INSNS + times * f->insn + extra, CALL_CYCLES + times * f->cycles + extra,
            CALL_BRANCHES + times * f->branches);
}

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

static void run_nothing(void *arg, unsigned times)
{
    (void)arg;
    (void)times;
}

/* The workload declares 1000 instructions and 100 branches each time over;
 * the simulated CPU retires insn of them. */
static bool prove(struct pmu_driver *d, struct msr_sim *s, uint64_t insn, uint64_t cycles, struct pmu_verdict *v)
{
    struct fake_work f = { s, insn, cycles, 100, 0, 0, 0 };
    struct pmu_workload w = { run_fake, &f, 1000, 100 };
    return pmu_prove(d, &w, v);
}

static const struct pmu_probe *probe(const struct pmu_verdict *v, int slot)
{
    for (unsigned i = 0; i < v->nprobes; i++)
        if (v->probes[i].slot == slot)
            return &v->probes[i];
    fail_msg("no probe for slot %d", slot);
    return NULL;
}

static void test_counting_each_family(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct pmu_verdict v;

    struct cpu_info p54 = cpu_of(VENDOR_INTEL, 5, 2, false);
    sim_init_p5(&s, false);
    pmu_bind(&d, PMU_P5, &p54, sim_ops(&s));
    assert_true(prove(&d, &s, 1040, 900, &v));
    assert_int_equal(v.reason, PMU_REASON_OK);
    assert_int_equal(v.nprobes, 2);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->delta, 1040);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->expect_min, 1000);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->expect_max, 1000 + 62);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->once, CALL_INSNS + 1040);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->twice, CALL_INSNS + 2 * 1040);
    assert_int_equal(v.rounds, PMU_PROVE_ROUNDS);
    assert_string_equal(v.reads, "rdmsr");
    assert_int_equal(probe(&v, PMU_PROOF_CYCLES)->delta, 900);
    assert_false(v.fixed_counting);
    assert_int_equal(v.restore_status, 0);
    assert_int_equal(v.restore_bad, 0);
    assert_int_equal(s.cesr, 0); /* left as found */

    struct cpu_info p55 = cpu_of(VENDOR_INTEL, 5, 4, true);
    sim_init_p5(&s, true);
    pmu_bind(&d, PMU_P5, &p55, sim_ops(&s));
    assert_true(prove(&d, &s, 1000, 700, &v));
    assert_string_equal(probe(&v, PMU_PROOF_CYCLES)->event, "CYCLES_NOT_IN_HALT");

    struct cpu_info p2 = cpu_of(VENDOR_INTEL, 6, 5, true);
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    assert_true(prove(&d, &s, 1050, 1500, &v));
    assert_string_equal(probe(&v, PMU_PROOF_INSN)->event, "INST_RETIRED");

    struct cpu_info sk = cpu_of(VENDOR_INTEL, 6, 0x5E, true);
    sk.perfmon = (typeof(sk.perfmon)){ 4, 4, 48, 3, 48, 0 };
    sim_init_arch(&s, 4, 4, 48, 3, 48);
    pmu_bind(&d, PMU_ARCH, &sk, sim_ops(&s));
    assert_true(prove(&d, &s, 1003, 400, &v));
    assert_true(v.fixed_counting);
    assert_int_equal(v.nprobes, 6);
    assert_int_equal(d.fixed_proven, 0x7);
    assert_string_equal(probe(&v, PMU_PROOF_FIXED_REF)->event, "CPU_CLK_UNHALTED.REF_TSC");
    assert_int_equal(probe(&v, PMU_PROOF_FIXED_REF)->delta, 400);
    assert_int_equal(probe(&v, PMU_PROOF_BRANCH)->delta, 100);
    assert_int_equal(probe(&v, PMU_PROOF_FIXED_INSN)->delta, 1003);
    assert_int_equal(s.global_ctrl, 0xF); /* post-RESET value back */

    struct cpu_info zen = cpu_of(VENDOR_AMD, 0x17, 0x71, true);
    zen.features[FW_X1_ECX] |= 1u << 23;
    sim_init_amd(&s, true);
    pmu_bind(&d, PMU_AMD, &zen, sim_ops(&s));
    assert_true(prove(&d, &s, 1000, 250, &v));
    assert_int_equal(v.nprobes, 3);
}

static void test_dead_counters_read_zero(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct pmu_verdict v;
    struct cpu_info p2 = cpu_of(VENDOR_INTEL, 6, 5, true);
    sim_init_p6(&s);
    s.mode = SIM_DEAD;
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    assert_false(prove(&d, &s, 1000, 1000, &v));
    assert_int_equal(v.reason, PMU_REASON_READS_ZERO);
    assert_string_equal(pmu_reason_text(v.reason), "counters read zero");
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->before, 0);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->after, 0);
    assert_false(probe(&v, PMU_PROOF_INSN)->ok);
    assert_int_equal(v.restore_status, 0);
}

static void test_gp_on_every_pmu_msr(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct pmu_verdict v;
    struct cpu_info zen = cpu_of(VENDOR_AMD, 0x17, 0x71, true);
    zen.features[FW_X1_ECX] |= 1u << 23;
    sim_init_amd(&s, true);
    s.mode = SIM_GP;
    pmu_bind(&d, PMU_AMD, &zen, sim_ops(&s));
    struct fake_work f = { &s, 1000, 1000, 100, 0, 0, 0 };
    struct pmu_workload w = { run_fake, &f, 1000, 100 };
    assert_false(pmu_prove(&d, &w, &v));
    assert_int_equal(v.reason, PMU_REASON_SAVE_FAULT);
    assert_int_equal(v.fault, FAULT_CODE(13));
    assert_int_equal(v.fault_msr, 0xC0010201u); /* the first MSR saved */
    assert_int_equal(f.calls, 0);               /* nothing run, nothing written */
    assert_int_equal(s.writes, 0);
    assert_int_equal(v.restore_status, PMU_ERR_NOT_SAVED);
}

static void test_frozen_and_wild_counters(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct pmu_verdict v;
    struct cpu_info p2 = cpu_of(VENDOR_INTEL, 6, 5, true);

    /* Counters hold values but never move (ring 3 only events would do
     * the same): "does not move". */
    sim_init_p6(&s);
    sim_set(&s, 0xC1, 12345);
    sim_set(&s, 0xC2, 999);
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    struct pmu_workload nothing = { run_nothing, NULL, 1000, 100 };
    assert_false(pmu_prove(&d, &nothing, &v));
    assert_int_equal(v.reason, PMU_REASON_NO_MOVE);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->before, 12345);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->delta, 0);

    /* Counters that count the reads and the call but not the loop: they
     * move, by the same amount at either length. */
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    assert_false(prove(&d, &s, 0, 0, &v));
    assert_int_equal(v.reason, PMU_REASON_OUT_OF_WINDOW);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->once, CALL_INSNS);
    assert_int_equal(probe(&v, PMU_PROOF_INSN)->delta, 0);

    /* Five times the instructions the workload has: implausible. */
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    assert_false(prove(&d, &s, 5000, 5000, &v));
    assert_int_equal(v.reason, PMU_REASON_OUT_OF_WINDOW);
    assert_false(probe(&v, PMU_PROOF_INSN)->ok);
    assert_true(probe(&v, PMU_PROOF_CYCLES)->ok);

    /* Fewer instructions than the workload retires: implausible too. */
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    assert_false(prove(&d, &s, 999, 5000, &v));
    assert_int_equal(v.reason, PMU_REASON_OUT_OF_WINDOW);

    /* Cycles below N/8: no core retires that fast. */
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    assert_false(prove(&d, &s, 1000, 100, &v));
    assert_int_equal(v.reason, PMU_REASON_OUT_OF_WINDOW);
    assert_false(probe(&v, PMU_PROOF_CYCLES)->ok);
}

static void test_fixed_counters_do_not_decide(void **state)
{
    (void)state;
    /* Fixed counters that never move do not condemn working general
     * counters; fixed_counting says they are not to be used. */
    struct msr_sim s;
    struct pmu_driver d;
    struct pmu_verdict v;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 6, 0x5E, true);
    c.perfmon = (typeof(c.perfmon)){ 2, 4, 48, 3, 48, 0 };
    sim_init_arch(&s, 2, 4, 48, 3, 48);
    s.fixed_frozen = true;
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    assert_true(prove(&d, &s, 1000, 800, &v));
    assert_false(v.fixed_counting);
    assert_int_equal(d.fixed_proven, 0); /* no event goes to them */
    assert_int_equal(probe(&v, PMU_PROOF_FIXED_INSN)->delta, 0);
    assert_false(probe(&v, PMU_PROOF_FIXED_INSN)->ok);

    /* CPUID promises fixed counters the vPMU lacks: saving 0x309 faults,
     * so the driver never writes anything. */
    sim_init_arch(&s, 2, 4, 48, 3, 48);
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    s.fixed = 0;
    assert_false(prove(&d, &s, 1000, 800, &v));
    assert_int_equal(v.reason, PMU_REASON_SAVE_FAULT);
    assert_int_equal(v.fault_msr, 0x309);
    assert_int_equal(s.writes, 0);
}

static void test_no_driver(void **state)
{
    (void)state;
    struct pmu_driver d;
    struct pmu_verdict v;
    struct cpu_info c = cpu_of(VENDOR_CYRIX, 6, 0, true);
    struct msr_sim s;
    sim_init_p5(&s, false);
    pmu_bind(&d, pmu_select(&c, NULL), &c, sim_ops(&s));
    struct fake_work f = { &s, 0, 0, 0, 0, 0, 0 };
    struct pmu_workload w = { run_fake, &f, 1000, 0 };
    assert_false(pmu_prove(&d, &w, &v));
    assert_int_equal(v.reason, PMU_REASON_NO_DRIVER);
    assert_int_equal(v.nprobes, 0);
    assert_int_equal(f.calls, 0);
}

static void test_windows(void **state)
{
    (void)state;
    uint64_t lo, hi;
    pmu_prove_window(PMU_PROOF_INSN, 1600, 0, &lo, &hi);
    assert_int_equal(lo, 1600);
    assert_int_equal(hi, 1600 + 100);
    pmu_prove_window(PMU_PROOF_BRANCH, 0, 320, &lo, &hi);
    assert_int_equal(lo, 320);
    assert_int_equal(hi, 320 + 20);
    pmu_prove_window(PMU_PROOF_CYCLES, 1600, 0, &lo, &hi);
    assert_int_equal(lo, 200);
    assert_int_equal(hi, 1600 * 256 + (1u << 24));
    pmu_prove_window(PMU_PROOF_FIXED_CYCLES, 0, 0, &lo, &hi);
    assert_int_equal(lo, 1);
    pmu_prove_window(PMU_PROOF_FIXED_REF, 1600, 0, &lo, &hi);
    assert_int_equal(lo, 200);
}

/* Every counter access costs 400 instructions, 900 cycles and 40 branches
 * (about what the kernel's RDMSR path costs): a window around the workload
 * spans the reads of every other probe, which the one-window proof counted
 * as the workload's own (it failed every driver here: instructions 1800 on
 * the P5 and P6, 2200 on the AMD K7, 3000 on arch-perfmon for 1000). The
 * difference leaves exactly the loop's counts. */
static void expect_exact(struct pmu_driver *d, struct msr_sim *s, const char *what)
{
    struct pmu_verdict v;
    s->access_cost.insn = 400;
    s->access_cost.cycles = 900;
    s->access_cost.branches = 40;
    print_message("%s\n", what);
    assert_true(prove(d, s, 1000, 700, &v));
    for (unsigned i = 0; i < v.nprobes; i++) {
        const struct pmu_probe *p = &v.probes[i];
        assert_true(p->ok);
        if (p->slot == PMU_PROOF_INSN || p->slot == PMU_PROOF_FIXED_INSN) {
            assert_int_equal(p->delta, 1000);
            assert_true(p->once >= CALL_INSNS + 1000 + 400); /* the reads are in the window */
        } else if (p->slot == PMU_PROOF_BRANCH) {
            assert_int_equal(p->delta, 100);
        } else { /* cycles (the P54C: clocks in which instructions execute) */
            assert_int_equal(p->delta, 700);
        }
    }
}

static void test_read_costs_cancel_on_every_driver(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info p54 = cpu_of(VENDOR_INTEL, 5, 2, false), p55 = cpu_of(VENDOR_INTEL, 5, 4, true);
    sim_init_p5(&s, false);
    pmu_bind(&d, PMU_P5, &p54, sim_ops(&s));
    expect_exact(&d, &s, "p5");
    sim_init_p5(&s, true);
    pmu_bind(&d, PMU_P5, &p55, sim_ops(&s));
    expect_exact(&d, &s, "p5-mmx");

    struct cpu_info p2 = cpu_of(VENDOR_INTEL, 6, 5, true);
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
    expect_exact(&d, &s, "p6");

    static const unsigned gps[] = { 1, 2, 4, 8 };
    for (unsigned i = 0; i < sizeof gps / sizeof gps[0]; i++) {
        struct cpu_info sk = cpu_of(VENDOR_INTEL, 6, 0x55, true);
        sk.perfmon = (typeof(sk.perfmon)){ 2, gps[i], 48, 3, 48, 0 };
        sim_init_arch(&s, 2, gps[i], 48, 3, 48);
        pmu_bind(&d, PMU_ARCH, &sk, sim_ops(&s));
        expect_exact(&d, &s, "intel-arch-v2");
        assert_int_equal(d.fixed_proven, 0x7);
    }

    struct cpu_info k7 = cpu_of(VENDOR_AMD, 6, 2, true), zen = cpu_of(VENDOR_AMD, 0x17, 0x71, true);
    zen.features[FW_X1_ECX] |= 1u << 23;
    sim_init_amd(&s, false);
    pmu_bind(&d, PMU_AMD, &k7, sim_ops(&s));
    expect_exact(&d, &s, "amd-k7");
    sim_init_amd(&s, true);
    pmu_bind(&d, PMU_AMD, &zen, sim_ops(&s));
    expect_exact(&d, &s, "amd-core");
}

/* An interrupt in one run adds to that run only: the least of the rounds
 * leaves it out, whichever length it hit. */
static void test_least_of_rounds_drops_noise(void **state)
{
    (void)state;
    struct cpu_info p2 = cpu_of(VENDOR_INTEL, 6, 5, true);
    for (int at = 1; at <= 2 * (int)PMU_PROVE_ROUNDS; at++) {
        struct msr_sim s;
        struct pmu_driver d;
        struct pmu_verdict v;
        sim_init_p6(&s);
        pmu_bind(&d, PMU_P6, &p2, sim_ops(&s));
        struct fake_work f = { &s, 1000, 1000, 100, 0, at, 5000 };
        struct pmu_workload w = { run_fake, &f, 1000, 100 };
        assert_true(pmu_prove(&d, &w, &v));
        assert_int_equal(probe(&v, PMU_PROOF_INSN)->delta, 1000);
        assert_int_equal(f.calls, 2 * (int)PMU_PROVE_ROUNDS);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counting_each_family),
        cmocka_unit_test(test_dead_counters_read_zero),
        cmocka_unit_test(test_gp_on_every_pmu_msr),
        cmocka_unit_test(test_frozen_and_wild_counters),
        cmocka_unit_test(test_fixed_counters_do_not_decide),
        cmocka_unit_test(test_no_driver),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_read_costs_cancel_on_every_driver),
        cmocka_unit_test(test_least_of_rounds_drops_noise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
