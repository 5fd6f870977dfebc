/* The "pmu" record carries driver, counters, verdict and evidence. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "report/write.h"
#include "record/log.h"
#include "support/capture.h"
#include "support/msr_sim.h"

/* Each time over: 1000 instructions, 1500 cycles; the call: 20 of each. */
static void run_sim(void *arg, unsigned times)
{
    sim_run(arg, 20 + times * 1000, 20 + times * 1500, 0);
}

static struct cpu_info pentium2(void)
{
    struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_CPUID;
    c.vendor = VENDOR_INTEL;
    c.family = 6;
    c.model = 5;
    c.features[FW_1_EDX] = (1u << 4) | (1u << 5) | (1u << 23);
    return c;
}

static void test_record_not_counting(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct pmu_verdict v;
    struct cpu_info c = pentium2();
    const char *why;
    sim_init_p6(&s);
    s.mode = SIM_DEAD;
    pmu_bind(&d, pmu_select(&c, &why), &c, sim_ops(&s));
    struct pmu_workload w = { run_sim, &s, 1000, 0 };
    pmu_prove(&d, &w, &v);

    capture_reset();
    log_reset();
    write_pmu(&d, why, &v);
    const char *m = capture_machine();
    assert_non_null(strstr(m, "{\"type\":\"pmu\",\"driver\":\"p6\",\"kind\":\"p6\",\"why\":"));
    assert_non_null(strstr(m, "\"gp_counters\":2,\"gp_width\":40,\"fixed_counters\":0,\"fixed_width\":0,"
                              "\"rdpmc\":true"));
    assert_non_null(strstr(m, "\"verdict\":\"not counting\",\"reason\":\"counters read zero\""));
    assert_non_null(strstr(m, "{\"check\":\"instructions\",\"event\":\"INST_RETIRED\",\"counter\":\"gp0\","
                              "\"code\":\"0xc0\",\"umask\":\"0x0\",\"before\":0,\"after\":0,\"once\":0,\"twice\":0,"
                              "\"delta\":0,\"min\":1000,\"max\":1062,\"ok\":false"));
    assert_non_null(strstr(m, "\"restore\":{\"status\":\"0x0\",\"checked\":4,\"mismatches\":0"));
    /* One JSON line. */
    const char *nl = strchr(m, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0');
    const char *h = capture_human();
    assert_non_null(strstr(h, "pmu: p6 (p6), 2 x 40-bit general, 0 x 0-bit fixed: not counting: counters read zero"));
}

static void test_record_counting_with_fault_free_evidence(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct pmu_verdict v;
    struct cpu_info c = pentium2();
    sim_init_p6(&s);
    pmu_bind(&d, PMU_P6, &c, sim_ops(&s));
    struct pmu_workload w = { run_sim, &s, 1000, 0 };
    assert_true(pmu_prove(&d, &w, &v));
    capture_reset();
    log_reset();
    write_pmu(&d, NULL, &v);
    const char *m = capture_machine();
    assert_null(strstr(m, "\"why\""));
    assert_non_null(strstr(m, "\"verdict\":\"counting\",\"reason\":\"counting\",\"fixed_counting\":false"));
    assert_non_null(strstr(m, "\"check\":\"cycles\",\"event\":\"CPU_CLK_UNHALTED\",\"counter\":\"gp1\""));
    assert_non_null(strstr(m, "\"once\":1520,\"twice\":3020,\"delta\":1500,\"min\":125,"));
    assert_non_null(strstr(m, "\"instructions\":1000,\"branches\":0,\"rounds\":3,\"reads\":\"rdmsr\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_not_counting),
        cmocka_unit_test(test_record_counting_with_fault_free_evidence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
