/* Event tables and event selection by name or raw code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "pmu/pmu.h"
#include "support/msr_sim.h"

static struct msr_sim sim;

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

static void no_duplicate_names(const struct pmu_event *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++)
            if (strcmp(t[i].name, t[j].name) == 0)
                fail_msg("duplicate event name %s", t[i].name);
}

static const struct pmu_event *by_name(const struct pmu_event *t, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    fail_msg("no event %s", name);
    return NULL;
}

static void test_p5_table(void **state)
{
    (void)state;
    no_duplicate_names(pmu_events_p5, pmu_events_p5_count);
    /* Base events first, 0x00-0x29; the P55C ones after, all flagged. */
    for (unsigned i = 0; i < pmu_events_p5_count; i++) {
        bool mmx = pmu_events_p5[i].flags & PMU_EV_MMX;
        assert_int_equal(mmx, i >= pmu_events_p5_base_count);
        assert_true(pmu_events_p5[i].code <= (mmx ? 0x3F : 0x29));
    }
    /* Seed 000 / SDM Table 19-38 codes the benchmarks rely on. */
    assert_int_equal(by_name(pmu_events_p5, pmu_events_p5_count, "INSTRUCTIONS_EXECUTED")->code, 0x16);
    assert_int_equal(by_name(pmu_events_p5, pmu_events_p5_count, "INSTRUCTIONS_EXECUTED_V_PIPE")->code, 0x17);
    assert_int_equal(by_name(pmu_events_p5, pmu_events_p5_count, "PIPELINE_AGI_STALLS")->code, 0x1F);
    assert_int_equal(by_name(pmu_events_p5, pmu_events_p5_count, "BANK_CONFLICTS")->code, 0x0A);
    assert_int_equal(by_name(pmu_events_p5, pmu_events_p5_count, "DATA_READ_OR_WRITE_MISS")->code, 0x29);
    const struct pmu_event *e = by_name(pmu_events_p5, pmu_events_p5_count, "CYCLES_NOT_IN_HALT");
    assert_int_equal(e->code, 0x30);
    assert_int_equal(e->counters, 1);
    assert_true(e->flags & PMU_EV_DURATION);
}

static void test_p6_arch_amd_tables(void **state)
{
    (void)state;
    no_duplicate_names(pmu_events_p6, pmu_events_p6_count);
    no_duplicate_names(pmu_events_arch, pmu_events_arch_count);
    no_duplicate_names(pmu_events_amd, pmu_events_amd_count);
    assert_int_equal(by_name(pmu_events_p6, pmu_events_p6_count, "INST_RETIRED")->code, 0xC0);
    assert_int_equal(by_name(pmu_events_p6, pmu_events_p6_count, "CPU_CLK_UNHALTED")->code, 0x79);
    assert_int_equal(by_name(pmu_events_p6, pmu_events_p6_count, "BR_INST_RETIRED")->code, 0xC4);
    assert_int_equal(by_name(pmu_events_p6, pmu_events_p6_count, "BR_MISS_PRED_RETIRED")->code, 0xC5);
    assert_int_equal(by_name(pmu_events_p6, pmu_events_p6_count, "DCU_LINES_IN")->code, 0x45);
    assert_int_equal(by_name(pmu_events_p6, pmu_events_p6_count, "UOPS_RETIRED")->code, 0xC2);
    const struct pmu_event *l2 = by_name(pmu_events_p6, pmu_events_p6_count, "L2_RQSTS");
    assert_int_equal(l2->code, 0x2E);
    assert_int_equal(l2->umask, 0x0F);
    /* Architectural events: bit i of CPUID.0AH:EBX is entry i. */
    for (unsigned i = 0; i < pmu_events_arch_count; i++)
        assert_int_equal(pmu_events_arch[i].arch_bit, (int)i);
    assert_int_equal(pmu_events_arch[1].code, 0xC0);
    assert_int_equal(pmu_events_arch[3].umask, 0x4F);
    assert_int_equal(pmu_events_arch[4].umask, 0x41);
    assert_int_equal(by_name(pmu_events_amd, pmu_events_amd_count, "RETIRED_INSTRUCTIONS")->code, 0xC0);
    assert_int_equal(by_name(pmu_events_amd, pmu_events_amd_count, "CPU_CLK_UNHALTED")->code, 0x76);
    assert_int_equal(by_name(pmu_events_amd, pmu_events_amd_count, "RETIRED_BRANCHES")->code, 0xC2);
    assert_int_equal(by_name(pmu_events_amd, pmu_events_amd_count, "RETIRED_BRANCHES_MISPREDICTED")->code, 0xC3);
}

static void test_find_and_availability(void **state)
{
    (void)state;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 5, 2, false);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&sim));
    assert_non_null(pmu_event_find(&d, "pipeline_agi_stalls"));
    assert_null(pmu_event_find(&d, "CYCLES_NOT_IN_HALT")); /* P55C only */
    assert_null(pmu_event_find(&d, "PIPELINE_AGI"));        /* prefixes do not match */
    c = cpu_of(VENDOR_INTEL, 5, 4, true);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&sim));
    assert_non_null(pmu_event_find(&d, "CYCLES_NOT_IN_HALT"));

    c = cpu_of(VENDOR_INTEL, 6, 0x5E, true);
    c.perfmon.version = 4;
    c.perfmon.gp_counters = 4;
    c.perfmon.gp_width = 48;
    c.perfmon.fixed_counters = 3;
    c.perfmon.unavailable_events = 1u << 4; /* LLC misses */
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&sim));
    assert_null(pmu_event_find(&d, "LONGEST_LAT_CACHE.MISS"));
    assert_non_null(pmu_event_find(&d, "LONGEST_LAT_CACHE.REFERENCE"));
    /* The raw code of an unavailable architectural event is refused too. */
    struct pmu_eventsel e;
    assert_int_equal(pmu_event_parse(&d, "0x2e:0x41", &e), PMU_ERR_EVENT);
    assert_int_equal(pmu_event_parse(&d, "0x2e:0x4f", &e), 0);
}

static void test_parse(void **state)
{
    (void)state;
    struct pmu_driver d;
    struct pmu_eventsel e;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 6, 5, true);
    pmu_bind(&d, PMU_P6, &c, sim_ops(&sim));

    assert_int_equal(pmu_event_parse(&d, "inst_retired", &e), 0);
    assert_string_equal(e.name, "INST_RETIRED");
    assert_int_equal(e.code, 0xC0);
    assert_int_equal(e.flags, PMU_OS | PMU_USR);

    /* Raw codes: anything not in the table. */
    assert_int_equal(pmu_event_parse(&d, "0xd2", &e), 0);
    assert_null(e.name);
    assert_int_equal(e.code, 0xD2);
    assert_int_equal(e.umask, 0);
    assert_int_equal(e.counters, 0);
    assert_int_equal(pmu_event_parse(&d, "0x2E:0x41:u", &e), 0);
    assert_int_equal(e.code, 0x2E);
    assert_int_equal(e.umask, 0x41);
    assert_int_equal(e.flags, PMU_USR);
    assert_int_equal(pmu_event_parse(&d, "L2_RQSTS:0x08:k", &e), 0);
    assert_int_equal(e.umask, 0x08);
    assert_int_equal(e.flags, PMU_OS);
    /* Counter restrictions come along from the table. */
    assert_int_equal(pmu_event_parse(&d, "DIV", &e), 0);
    assert_int_equal(e.counters, 2);
    assert_false(pmu_event_allowed(&d, 0, &e));
    assert_true(pmu_event_allowed(&d, 1, &e));

    assert_int_equal(pmu_event_parse(&d, "NO_SUCH_EVENT", &e), PMU_ERR_PARSE);
    assert_int_equal(pmu_event_parse(&d, "", &e), PMU_ERR_PARSE);
    assert_int_equal(pmu_event_parse(&d, "c0", &e), PMU_ERR_PARSE);     /* raw needs 0x */
    assert_int_equal(pmu_event_parse(&d, "0xzz", &e), PMU_ERR_PARSE);
    assert_int_equal(pmu_event_parse(&d, "0xc0:bogus", &e), PMU_ERR_PARSE);
    assert_int_equal(pmu_event_parse(&d, "0x1c0", &e), PMU_ERR_EVENT);  /* 8-bit codes on P6 */
    assert_int_equal(pmu_event_parse(&d, "0xc0:dur", &e), PMU_ERR_EVENT); /* clock mode is P5's */

    /* P5: 6-bit codes, clock mode, no unit masks. */
    c = cpu_of(VENDOR_INTEL, 5, 2, false);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&sim));
    assert_int_equal(pmu_event_parse(&d, "0x16:dur", &e), 0);
    assert_int_equal(e.flags, PMU_OS | PMU_USR | PMU_DURATION);
    assert_int_equal(pmu_event_parse(&d, "0x40", &e), PMU_ERR_EVENT);
    assert_int_equal(pmu_event_parse(&d, "0x16:0x01", &e), PMU_ERR_EVENT);
    assert_int_equal(pmu_event_parse(&d, "BUS_CYCLE_DURATION", &e), 0);
    assert_true(e.flags & PMU_DURATION);

    /* AMD: 12-bit codes from family 10h. */
    c = cpu_of(VENDOR_AMD, 0x17, 0x71, true);
    pmu_bind(&d, PMU_AMD, &c, sim_ops(&sim));
    assert_int_equal(pmu_event_parse(&d, "0x1c0", &e), 0);
    assert_int_equal(e.code, 0x1C0);
    c = cpu_of(VENDOR_AMD, 6, 2, true);
    pmu_bind(&d, PMU_AMD, &c, sim_ops(&sim));
    assert_int_equal(pmu_event_parse(&d, "0x1c0", &e), PMU_ERR_EVENT);
}

/* The label a record carries is the request itself: it parses back to the
 * same selection, and keeps P5's clock mode, the ring and a unit mask the
 * name alone does not mean. */
static void expect_label(const struct pmu_driver *d, const char *text, const char *label)
{
    struct pmu_eventsel e, again;
    char buf[PMU_LABEL_MAX];
    assert_int_equal(pmu_event_parse(d, text, &e), 0);
    int n = pmu_eventsel_label(d, &e, buf, sizeof buf);
    assert_string_equal(buf, label);
    assert_int_equal(n, (int)strlen(label));
    assert_int_equal(pmu_event_parse(d, buf, &again), 0);
    assert_int_equal(again.code, e.code);
    assert_int_equal(again.umask, e.umask);
    assert_int_equal(again.flags, e.flags);
    assert_true((again.name == NULL) == (e.name == NULL));
}

static void test_label(void **state)
{
    (void)state;
    struct pmu_driver d;
    struct cpu_info c = cpu_of(VENDOR_INTEL, 5, 2, false);
    pmu_bind(&d, PMU_P5, &c, sim_ops(&sim));
    expect_label(&d, "0x16:dur", "0x16:dur");
    expect_label(&d, "0x16", "0x16");
    expect_label(&d, "0x16:u:dur", "0x16:u:dur");
    expect_label(&d, "0x16:dur:k", "0x16:k:dur");
    expect_label(&d, "bus_cycle_duration", "BUS_CYCLE_DURATION"); /* a duration by its table entry */
    expect_label(&d, "INSTRUCTIONS_EXECUTED:u", "INSTRUCTIONS_EXECUTED:u");
    expect_label(&d, "INSTRUCTIONS_EXECUTED:dur", "INSTRUCTIONS_EXECUTED:dur");

    c = cpu_of(VENDOR_INTEL, 6, 5, true);
    pmu_bind(&d, PMU_P6, &c, sim_ops(&sim));
    expect_label(&d, "0xd2", "0xd2");
    expect_label(&d, "0x2E:0x41:u", "0x2e:0x41:u");
    expect_label(&d, "inst_retired", "INST_RETIRED");
    expect_label(&d, "inst_retired:k:u", "INST_RETIRED:u"); /* the last ring word wins */
    expect_label(&d, "L2_RQSTS:0x08:k", "L2_RQSTS:0x08:k");

    /* Without a driver a name is taken at its word; the buffer bounds it. */
    struct pmu_eventsel raw = { .code = 0x16, .flags = PMU_OS | PMU_USR | PMU_DURATION };
    char small[6];
    assert_int_equal(pmu_eventsel_label(NULL, &raw, small, sizeof small), 8);
    assert_string_equal(small, "0x16:");
}

int main(void)
{
    sim_init_p5(&sim, false);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p5_table),
        cmocka_unit_test(test_p6_arch_amd_tables),
        cmocka_unit_test(test_find_and_availability),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_label),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
