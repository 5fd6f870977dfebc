/* A cold benchmark's counters (issue 20, point 10): the run keeps one
 * static struct event_counts from one benchmark to the next, and a cold
 * benchmark is not counted (its first execution is the measurement), so
 * before count_measured() its record showed the counts of the benchmark
 * measured before it. Here a warm benchmark is counted on the simulated
 * PMU, then a cold one with the same event_counts: the cold one's record
 * must carry no count (per_body null, error PMU_ERR_COLD), never the warm
 * one's, and its body must not have run for counting. The labels the plan
 * gives the events keep their qualifiers (P5's clock mode). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "harness/count.h"
#include "harness/measure.h"
#include "harness/plan.h"
#include "harness/result.h"
#include "harness/timing_page.h"
#include "msr_sim.h"
#include "pmu/counters.h"
#include "sim_arch.h"
#include "report/write.h"

#define BODY_INSNS 5
#define OVERHEAD_INSNS 91 /* prologue, reads, epilogue: cancel in 2U - U */

static uint8_t copies[CK_MAX_COPIES];
static struct msr_sim sim;
static unsigned body_runs;

/* The generated function's stand-in: tells the simulated PMU how many
 * bodies ran (measure.c enters at copies_end - copies * size). */
static void stand_in_body(void)
{
    uint32_t n = (uint32_t)(copies + CK_MAX_COPIES - (const uint8_t *)ck_timing.entry);
    uint64_t bodies = (uint64_t)n * ck_timing.loops;
    sim_run(&sim, OVERHEAD_INSNS + bodies * BODY_INSNS, 300 + 2 * bodies, 5 + bodies);
    body_runs++;
    ck_timing.end_esp = ck_timing.stack_top;
}

/* The result record of b as the run writes it (only what the events need). */
static const char *record_of(const struct bench *b, const struct measurement *m,
                             const struct event_counts *ec)
{
    struct result r;
    memset(&r, 0, sizeof r);
    r.b = b;
    r.m = m;
    r.ec = ec;
    r.cycles_unit = "unknown";
    r.time_unit = "tsc";
    r.verdict = "no expectation";
    capture_reset();
    write_result(&r);
    return capture_machine();
}

static void a_cold_benchmark_keeps_no_count_of_the_one_before(void **state)
{
    (void)state;
    struct pmu_driver d;
    assert_int_equal(sim_bind_arch_v4(&sim, &d), 0);
    static struct event_counts ec; /* static, reused, as in kernel/run/bench_run.c */
    memset(&ec, 0, sizeof ec);
    assert_int_equal(pmu_event_parse(&d, "INST_RETIRED.ANY_P", &ec.sel[0]), 0);
    ec.names[0] = "INST_RETIRED.ANY_P";
    ec.n = 1;
    ec.cycles_index = -1;

    struct settings s;
    memset(&s, 0, sizeof s);
    s.samples = 11;
    s.unroll = 4;
    s.loops = 20;
    struct bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    struct bench warm = { .name = "t/warm", .desc = "warm", .fn = stand_in_body, .copies = copies,
                          .copies_end = copies + CK_MAX_COPIES };
    struct plan pl;
    plan_build(&warm, &s, &pl);
    struct measurement m;
    memset(&m, 0, sizeof m);
    m.unroll = pl.unroll;
    m.loops = pl.loops;
    m.samples = pl.samples;
    count_measured(&d, &pl, &warm, &ctx, &m, &ec);
    assert_int_equal(ec.err[0], 0);
    assert_int_equal(ec.x100[0], BODY_INSNS * 100);
    assert_non_null(strstr(record_of(&warm, &m, &ec),
                           "\"events\":[{\"event\":\"INST_RETIRED.ANY_P\",\"per_body\":5.00}]"));

    struct bench cold = warm;
    cold.name = "t/cold";
    cold.cold = true;
    plan_build(&cold, &s, &pl);
    assert_true(pl.cold);
    m.cold = true;
    m.loops = 1;
    unsigned runs_before = body_runs;
    count_measured(&d, &pl, &cold, &ctx, &m, &ec);
    assert_int_equal(body_runs, runs_before); /* not run again for counting */
    assert_int_equal(ec.err[0], PMU_ERR_COLD);
    assert_int_equal(ec.x100[0], 0);
    const char *rec = record_of(&cold, &m, &ec);
    assert_non_null(strstr(rec, "\"name\":\"t/cold\""));
    assert_non_null(strstr(rec, "\"events\":[{\"event\":\"INST_RETIRED.ANY_P\",\"per_body\":null,"
                                "\"error\":\"0x406\"}]"));
    assert_null(strstr(rec, "5.00"));
    /* The readable row shows no counter line for it either. */
    assert_null(strstr(capture_human(), "INST_RETIRED.ANY_P"));
}

static void a_failed_measurement_keeps_no_event(void **state)
{
    (void)state;
    struct pmu_driver d;
    assert_int_equal(sim_bind_arch_v4(&sim, &d), 0);
    struct event_counts ec;
    memset(&ec, 0, sizeof ec);
    ec.n = 1;
    ec.x100[0] = 777;
    ec.cycles_index = 0;
    struct measurement m;
    memset(&m, 0, sizeof m);
    m.failed = "no timer";
    struct plan pl;
    memset(&pl, 0, sizeof pl);
    struct bench b = { .name = "t/failed", .fn = stand_in_body, .copies = copies,
                       .copies_end = copies + CK_MAX_COPIES };
    struct bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    count_measured(&d, &pl, &b, &ctx, &m, &ec);
    assert_int_equal(ec.n, 0);
    assert_int_equal(ec.cycles_index, -1);
}

/* The label the run's plan gives a counted event (plan_events) keeps its
 * qualifiers: P5's clock mode "0x16:dur" is not the event count "0x16"
 * (issue 20, point 10: it was labelled "0x16:0x0"), and the record says so. */
static void a_raw_event_label_keeps_its_mode(void **state)
{
    (void)state;
    static struct cpu_info p5;
    memset(&p5, 0, sizeof p5);
    p5.generation = CPU_GEN_CPUID;
    p5.vendor = VENDOR_INTEL;
    p5.family = 5;
    p5.model = 2;
    p5.features[FW_1_EDX] = (1u << 4) | (1u << 5);
    sim_init_p5(&sim, false);
    memset(&counters, 0, sizeof counters);
    pmu_bind(&counters.drv, PMU_P5, &p5, sim_ops(&sim));
    counters.active = true;
    const char *asked[] = { "0x16:dur", "0x16", "INSTRUCTIONS_EXECUTED:u", "bus_cycle_duration" };
    const char *label[] = { "0x16:dur", "0x16", "INSTRUCTIONS_EXECUTED:u", "BUS_CYCLE_DURATION" };
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(pmu_event_parse(&counters.drv, asked[i], &counters.chosen[i]), 0);
    counters.nchosen = 4;
    static struct event_counts ec;
    struct bench b = { .name = "p5/raw", .desc = "raw events" };
    plan_events(&b, &ec);
    assert_int_equal(ec.n, 4);
    for (unsigned i = 0; i < 4; i++)
        assert_string_equal(ec.names[i], label[i]);
    struct measurement m;
    memset(&m, 0, sizeof m);
    m.unroll = 1;
    m.loops = 1;
    m.cold = true; /* not counted: only the labels are looked at */
    struct plan pl;
    memset(&pl, 0, sizeof pl);
    struct bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    count_measured(&counters.drv, &pl, &b, &ctx, &m, &ec);
    const char *rec = record_of(&b, &m, &ec);
    assert_non_null(strstr(rec, "{\"event\":\"0x16:dur\",\"per_body\":null"));
    assert_non_null(strstr(rec, "{\"event\":\"0x16\",\"per_body\":null"));
    memset(&counters, 0, sizeof counters);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_cold_benchmark_keeps_no_count_of_the_one_before),
        cmocka_unit_test(a_failed_measurement_keeps_no_event),
        cmocka_unit_test(a_raw_event_label_keeps_its_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
