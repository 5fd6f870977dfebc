/* Counting events around a body, driven by the simulated MSR file: the
 * same 0/U/2U difference as time, so the counter reads and the loop cancel
 * and exactly the body's own events remain. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "harness/count.h"
#include "pmu/counters.h"
#include "pmu/pmu_prove.h"
#include "msr_sim.h"

#define LOOPS 10
#define BODY_INSNS 3
#define BODY_CYCLES 2
#define OVERHEAD_INSNS 137 /* prologue, reads, epilogue: must cancel */

static struct cpu_info cpu_of(unsigned family, unsigned model, unsigned version, unsigned gp)
{
    struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_CPUID;
    c.vendor = VENDOR_INTEL;
    c.family = family;
    c.model = model;
    c.features[FW_1_EDX] = (1u << 4) | (1u << 5);
    c.perfmon.version = version;
    c.perfmon.gp_counters = gp;
    c.perfmon.gp_width = 48;
    c.perfmon.fixed_counters = version ? 3 : 0;
    c.perfmon.fixed_width = 48;
    return c;
}

/* One run of `copies` bodies in LOOPS iterations, as the simulated CPU sees it. */
static void run_sim(void *ctx, uint32_t copies)
{
    struct msr_sim *s = ctx;
    uint64_t bodies = (uint64_t)copies * LOOPS;
    sim_run(s, OVERHEAD_INSNS + bodies * BODY_INSNS, 400 + bodies * BODY_CYCLES, 7 + LOOPS + bodies);
}

static void parse_all(struct pmu_driver *d, const char *const *names, unsigned n, struct pmu_eventsel *sel)
{
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(pmu_event_parse(d, names[i], &sel[i]), 0);
}

/* Arch-perfmon v4 with four general and three fixed counters, its MSRs in
 * `mode` (SIM_LIVE, or dead from the start), bound and saved. */
static void saved_arch(struct pmu_driver *d, struct msr_sim *s, struct cpu_info *c, enum sim_mode mode)
{
    *c = cpu_of(6, 0x8F, 4, 4);
    sim_init_arch(s, 4, 4, 48, 3, 48);
    s->mode = mode;
    pmu_bind(d, PMU_ARCH, c, sim_ops(s));
    assert_int_equal(pmu_save(d), 0);
}

static void arch_events_per_body(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c;
    saved_arch(&d, &s, &c, SIM_LIVE);
    const char *names[] = { "INST_RETIRED.ANY_P", "CPU_CLK_UNHALTED.THREAD_P", "BR_INST_RETIRED.ALL_BRANCHES" };
    struct pmu_eventsel sel[3];
    parse_all(&d, names, 3, sel);
    int64_t v[3];
    int err[3];
    unsigned passes = count_events(&d, sel, 3, NULL, run_sim, &s, 4, LOOPS, 9, v, err);
    assert_int_equal(passes, 1);
    assert_int_equal(err[0], 0);
    assert_int_equal(v[0], BODY_INSNS * 100);
    assert_int_equal(v[1], BODY_CYCLES * 100);
    assert_int_equal(v[2], 100); /* one branch per body in this simulation */
}

/* A loaded body's placement: its block looked up in a list, one more step
 * for 2U copies than for U (kernel/load/loaded_place.c). */
static void place_sim(void *ctx, uint32_t copies)
{
    sim_run(ctx, 5 * (copies / 4 + 1), 9 * (copies / 4 + 1), copies / 4 + 1);
}

/* The placement inside the run, as the count loop had it. */
static void place_and_run_sim(void *ctx, uint32_t copies)
{
    place_sim(ctx, copies);
    run_sim(ctx, copies);
}

/* What prepare does before the counters are read is not counted; the same
 * work inside the run is (the +0.01 instructions a copy a loaded body
 * counted on the counting QEMU), so the test tells the two apart. */
static void prepare_is_not_counted(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c;
    saved_arch(&d, &s, &c, SIM_LIVE);
    const char *names[] = { "INST_RETIRED.ANY_P" };
    struct pmu_eventsel sel[1];
    parse_all(&d, names, 1, sel);
    int64_t v[1];
    int err[1];
    count_events(&d, sel, 1, place_sim, run_sim, &s, 4, LOOPS, 9, v, err);
    assert_int_equal(err[0], 0);
    assert_int_equal(v[0], BODY_INSNS * 100);
    count_events(&d, sel, 1, NULL, place_and_run_sim, &s, 4, LOOPS, 9, v, err);
    assert_int_equal(err[0], 0);
    assert_int_equal(v[0], BODY_INSNS * 100 + 13); /* 5 more per run: 500 / (U*L = 40) = 12.5, rounded */
}

static void more_events_than_counters_take_passes(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(5, 2, 0, 0);
    sim_init_p5(&s, false);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&s));
    assert_int_equal(pmu_save(&d), 0);
    /* The P5 has two counters: five events need three passes. */
    const char *names[] = { "INSTRUCTIONS_EXECUTED", "BRANCHES", "INSTRUCTIONS_EXECUTED",
                            "DATA_READ", "0x16" };
    struct pmu_eventsel sel[5];
    parse_all(&d, names, 5, sel);
    int64_t v[5];
    int err[5];
    assert_int_equal(count_events(&d, sel, 5, NULL, run_sim, &s, 8, LOOPS, 5, v, err), 3);
    assert_int_equal(err[0], 0);
    assert_int_equal(v[0], BODY_INSNS * 100);
    assert_int_equal(v[2], BODY_INSNS * 100);
    assert_int_equal(v[4], BODY_INSNS * 100); /* raw 0x16 is the same event */
    assert_int_equal(v[1], 100);
    assert_int_equal(err[3], 0);
    assert_int_equal(v[3], 0); /* the simulation does no data reads */
}

/* What the instruction table asks a P5 for in each request (cyclekit/table/counters.py):
 * the instructions event and the V pipe's (17H), by those names, on the P5's two
 * counters in one pass, on the P54C and the P55C. Per body: the body's own
 * instructions, and what the V pipe executed of them (the simulation sends every
 * second instruction down the V pipe: msr_sim.c). */
static void the_tables_p5_events_in_one_pass(void **state)
{
    (void)state;
    for (int mmx = 0; mmx < 2; mmx++) {
        struct msr_sim s;
        struct pmu_driver d;
        struct cpu_info c = cpu_of(5, mmx ? 4 : 2, 0, 0);
        sim_init_p5(&s, mmx);
        pmu_bind(&d, PMU_P5, &c, sim_ops(&s));
        assert_int_equal(pmu_save(&d), 0);
        const char *names[] = { "INSTRUCTIONS_EXECUTED", "INSTRUCTIONS_EXECUTED_V_PIPE" };
        struct pmu_eventsel sel[2];
        parse_all(&d, names, 2, sel);
        int64_t v[2];
        int err[2];
        assert_int_equal(count_events(&d, sel, 2, NULL, run_sim, &s, 8, LOOPS, 5, v, err), 1);
        assert_int_equal(err[0], 0);
        assert_int_equal(err[1], 0);
        assert_int_equal(v[0], BODY_INSNS * 100);
        assert_int_equal(v[1], BODY_INSNS * 100 / 2);
    }
}

static void dead_counters_report_zero_not_garbage(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c;
    saved_arch(&d, &s, &c, SIM_DEAD);
    struct pmu_eventsel sel[1];
    const char *names[] = { "INST_RETIRED.ANY_P" };
    parse_all(&d, names, 1, sel);
    int64_t v[1];
    int err[1];
    count_events(&d, sel, 1, NULL, run_sim, &s, 4, LOOPS, 5, v, err);
    assert_int_equal(v[0], 0);
}

static void faulting_counters_give_an_error_per_event(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c;
    saved_arch(&d, &s, &c, SIM_LIVE);
    s.mode = SIM_GP; /* the counters vanish after saving (a hypervisor taking them away) */
    struct pmu_eventsel sel[1];
    const char *names[] = { "INST_RETIRED.ANY_P" };
    parse_all(&d, names, 1, sel);
    int64_t v[1];
    int err[1];
    count_events(&d, sel, 1, NULL, run_sim, &s, 4, LOOPS, 5, v, err);
    assert_int_not_equal(err[0], 0);
}

/* The proof runs on the simulated CPU (its loop: 1000 instructions and
 * cycles, 100 branches each time over). */
static void prove_loop(void *arg, unsigned times)
{
    sim_run(arg, 20 + times * 1000, 20 + times * 1000, 2 + times * 100);
}

/* Arch-perfmon v2 with `gp` general and three fixed counters (which never
 * count when frozen), proved and saved as the harness leaves it. */
static void proved_arch(struct pmu_driver *d, struct msr_sim *s, struct cpu_info *c, unsigned gp, bool frozen)
{
    *c = cpu_of(6, 0x55, 2, gp);
    sim_init_arch(s, 2, gp, 48, 3, 48);
    s->fixed_frozen = frozen;
    pmu_bind(d, PMU_ARCH, c, sim_ops(s));
    struct pmu_workload w = { prove_loop, s, 1000, 100 };
    struct pmu_verdict v;
    assert_true(pmu_prove(d, &w, &v));
    assert_int_equal(pmu_save(d), 0);
}

/* A fixed counter's own events go to it, the rest to the general counters:
 * five events on two general and three fixed counters take one pass. */
static void fixed_counters_take_their_events(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c;
    proved_arch(&d, &s, &c, 2, false);
    assert_int_equal(d.fixed_proven, 0x7);
    const char *names[] = { "INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.REF_TSC",
                            "INST_RETIRED.ANY_P", "BR_INST_RETIRED.ALL_BRANCHES" };
    struct pmu_eventsel sel[5];
    parse_all(&d, names, 5, sel);
    int64_t v[5];
    int err[5];
    s.access_cost.insn = 300; /* the reads cancel in the difference */
    assert_int_equal(count_events(&d, sel, 5, NULL, run_sim, &s, 4, LOOPS, 5, v, err), 1);
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(err[i], 0);
    assert_int_equal(v[0], BODY_INSNS * 100);
    assert_int_equal(v[1], BODY_CYCLES * 100);
    assert_int_equal(v[2], BODY_CYCLES * 100); /* reference cycles: the core's here */
    assert_int_equal(v[3], BODY_INSNS * 100);
    assert_int_equal(v[4], 100);
    uint64_t ref;
    assert_true(sim_get(&s, 0x30B, &ref)); /* IA32_FIXED_CTR2 counted them */
    assert_true(ref > 0);
}

/* Fixed counters the proof did not see counting take no event: the fixed
 * counters' own events fall back to general counters where one can count
 * them, and reference cycles at the TSC rate (fixed only) cannot run. */
static void unproved_fixed_counters_take_nothing(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c;
    proved_arch(&d, &s, &c, 2, true);
    assert_int_equal(d.fixed_proven, 0);
    const char *names[] = { "INST_RETIRED.ANY", "CPU_CLK_UNHALTED.REF_TSC", "CPU_CLK_UNHALTED.THREAD" };
    struct pmu_eventsel sel[3];
    parse_all(&d, names, 3, sel);
    int64_t v[3];
    int err[3];
    assert_int_equal(count_events(&d, sel, 3, NULL, run_sim, &s, 4, LOOPS, 5, v, err), 1);
    assert_int_equal(err[0], 0);
    assert_int_equal(v[0], BODY_INSNS * 100);
    assert_int_equal(err[1], PMU_ERR_EVENT);
    assert_int_equal(err[2], 0);
    assert_int_equal(v[2], BODY_CYCLES * 100);
}

/* sys/wrmsr/counter's counter: the last general one, kept from every event
 * until the events of the next measurement are placed; with one general
 * counter there is none to spare. */
static void a_held_counter_takes_no_event(void **state)
{
    (void)state;
    struct msr_sim s;
    struct cpu_info c;
    const char *why = NULL;
    memset(&counters, 0, sizeof counters);
    proved_arch(&counters.drv, &s, &c, 2, false);
    assert_int_equal(counters_hold_spare(&why), 0xC2); /* IA32_PMC1 */
    assert_int_equal(counters.drv.reserved, 0x2);
    const char *names[] = { "INST_RETIRED.ANY_P", "BR_INST_RETIRED.ALL_BRANCHES" };
    struct pmu_eventsel sel[2];
    parse_all(&counters.drv, names, 2, sel);
    int64_t v[2];
    int err[2];
    uint64_t pmc1_before, pmc1_after, sel1;
    sim_get(&s, 0xC2, &pmc1_before);
    assert_int_equal(count_events(&counters.drv, sel, 2, NULL, run_sim, &s, 4, LOOPS, 5, v, err), 2);
    sim_get(&s, 0xC2, &pmc1_after);
    sim_get(&s, 0x187, &sel1);
    assert_int_equal(pmc1_after, pmc1_before); /* never enabled: the benchmark's alone */
    assert_int_equal(sel1, 0);
    assert_int_equal(v[0], BODY_INSNS * 100);
    assert_int_equal(v[1], 100);
    assert_int_equal(counters.drv.reserved, 0); /* the hold ended with the measurement */
    assert_int_equal(count_events(&counters.drv, sel, 2, NULL, run_sim, &s, 4, LOOPS, 5, v, err), 1);

    proved_arch(&counters.drv, &s, &c, 1, false);
    assert_int_equal(counters_hold_spare(&why), 0);
    assert_non_null(strstr(why, "no general counter to spare"));
    assert_int_equal(counters.drv.reserved, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arch_events_per_body),
        cmocka_unit_test(prepare_is_not_counted),
        cmocka_unit_test(the_tables_p5_events_in_one_pass),
        cmocka_unit_test(more_events_than_counters_take_passes),
        cmocka_unit_test(dead_counters_report_zero_not_garbage),
        cmocka_unit_test(faulting_counters_give_an_error_per_event),
        cmocka_unit_test(fixed_counters_take_their_events),
        cmocka_unit_test(unproved_fixed_counters_take_nothing),
        cmocka_unit_test(a_held_counter_takes_no_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
