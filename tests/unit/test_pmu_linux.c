/* The pure half of the hosted runner's Linux counter driver (pmu/pmu_linux.c):
 * event names as events= reads them, what perf_event_open(2) is asked for
 * each request, and the sentence a refusal becomes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "pmu/pmu_linux.h"

static struct cpu_info the_cpu;

/* A PMU_LINUX driver as kernel/hosted/perf_events.c binds it (no system
 * call needed to parse names). */
static struct pmu_driver linux_driver(void)
{
    struct pmu_driver d;
    memset(&d, 0, sizeof d);
    memset(&the_cpu, 0, sizeof the_cpu);
    the_cpu.generation = CPU_GEN_CPUID;
    the_cpu.vendor = VENDOR_INTEL;
    d.kind = PMU_LINUX;
    d.name = "linux-perf";
    d.cpu = &the_cpu;
    d.gp_counters = PMU_MAX_GP;
    d.gp_width = 64;
    d.events = pmu_events_linux;
    d.nevents = pmu_events_linux_count;
    return d;
}

static struct pmu_linux_attr attr_of_text(const char *text)
{
    struct pmu_driver d = linux_driver();
    struct pmu_eventsel e;
    struct pmu_linux_attr a;
    assert_int_equal(pmu_event_parse(&d, text, &e), 0);
    assert_true(pmu_linux_attr_of(&e, &a));
    return a;
}

static void test_table(void **state)
{
    (void)state;
    for (unsigned i = 0; i < pmu_events_linux_count; i++) {
        const struct pmu_event *e = &pmu_events_linux[i];
        assert_true(e->umask == PMU_LINUX_HARDWARE || e->umask == PMU_LINUX_SOFTWARE);
        for (unsigned j = i + 1; j < pmu_events_linux_count; j++) {
            assert_true(strcmp(e->name, pmu_events_linux[j].name) != 0);
            /* one entry per (type, config): pmu_set_proof finds the proof's name by them */
            assert_false(e->code == pmu_events_linux[j].code && e->umask == pmu_events_linux[j].umask);
        }
    }
}

/* perf(1)'s names, any case; the kernel's Intel names are not Linux's. */
static void test_names(void **state)
{
    (void)state;
    struct pmu_driver d = linux_driver();
    struct pmu_eventsel e;
    assert_int_equal(pmu_event_parse(&d, "Page-Faults", &e), 0);
    assert_string_equal(e.name, "page-faults");
    assert_int_equal(pmu_event_parse(&d, "context-switches", &e), 0);
    assert_int_equal(e.code, PMU_LINUX_SW_CONTEXT_SWITCHES);
    assert_int_equal(e.umask, PMU_LINUX_SOFTWARE);
    /* cpu-clock: the timer sample=cpu-clock interrupts on, config 0 of the
     * software type (not the hardware type's cycles, also config 0). */
    assert_int_equal(pmu_event_parse(&d, "cpu-clock", &e), 0);
    assert_string_equal(e.name, "cpu-clock");
    assert_int_equal(e.code, PMU_LINUX_SW_CPU_CLOCK);
    assert_int_equal(e.umask, PMU_LINUX_SOFTWARE);
    assert_int_equal(pmu_event_parse(&d, "INST_RETIRED.ANY_P", &e), PMU_ERR_PARSE);
    assert_int_equal(pmu_event_parse(&d, "page", &e), PMU_ERR_PARSE);
    assert_int_equal(pmu_event_parse(&d, "cycles:dur", &e), PMU_ERR_EVENT); /* P5's clock mode only */
}

/* Hardware events count the body's ring (ring 3) unless a suffix says
 * otherwise, pinned; software events count everywhere, not pinned. */
static void test_rings(void **state)
{
    (void)state;
    struct pmu_linux_attr a = attr_of_text("instructions");
    assert_int_equal(a.type, PMU_LINUX_HARDWARE);
    assert_int_equal(a.config, PMU_LINUX_HW_INSTRUCTIONS);
    assert_true(a.exclude_kernel);
    assert_false(a.exclude_user);
    assert_true(a.pinned);
    a = attr_of_text("cycles:k");
    assert_false(a.exclude_kernel);
    assert_true(a.exclude_user);
    a = attr_of_text("context-switches");
    assert_int_equal(a.type, PMU_LINUX_SOFTWARE);
    assert_false(a.exclude_kernel);
    assert_false(a.exclude_user);
    assert_false(a.pinned);
    a = attr_of_text("cpu-clock");
    assert_int_equal(a.type, PMU_LINUX_SOFTWARE);
    assert_int_equal(a.config, PMU_LINUX_SW_CPU_CLOCK);
    assert_false(a.pinned);
    a = attr_of_text("page-faults:u");
    assert_true(a.exclude_kernel);
    assert_false(a.exclude_user);
}

/* Raw codes are PERF_TYPE_RAW in IA32_PERFEVTSELx's layout. */
static void test_raw(void **state)
{
    (void)state;
    struct pmu_linux_attr a = attr_of_text("0x2e:0x41");
    assert_int_equal(a.type, PMU_LINUX_RAW);
    assert_int_equal(a.config, 0x412e);
    assert_true(a.exclude_kernel);
    struct pmu_eventsel e = { 0 };
    e.code = 0x1c0; /* AMD's 12-bit select: bits 11:8 at 35:32 */
    e.umask = 0x01;
    e.cmask = 2;
    e.flags = PMU_USR | PMU_EDGE | PMU_INV;
    assert_true(pmu_linux_attr_of(&e, &a));
    assert_int_equal(a.config, 0x100000000ull | (2u << 24) | (1u << 23) | (1u << 18) | 0x01c0);
    /* A table name whose code a suffix changed is no longer that event. */
    e = (struct pmu_eventsel){ 0 };
    e.name = "cycles";
    e.umask = 0x01;
    assert_false(pmu_linux_attr_of(&e, &a));
}

static void test_refusal(void **state)
{
    (void)state;
    char buf[240];
    struct pmu_linux_attr hw = attr_of_text("instructions"), sw = attr_of_text("page-faults");
    struct pmu_linux_context vm = { 2, false, true, true };
    pmu_linux_refusal(buf, sizeof buf, &hw, "instructions", PMU_LINUX_ENOENT, &vm);
    assert_string_equal(buf, "perf_event_open(PERF_TYPE_HARDWARE instructions): ENOENT: no hardware PMU in "
                             "this VM (Linux registered no cpu event source: the hypervisor exposes no "
                             "virtual PMU)");
    struct pmu_linux_context metal = { 2, false, false, false };
    pmu_linux_refusal(buf, sizeof buf, &hw, "instructions", PMU_LINUX_ENOENT, &metal);
    assert_non_null(strstr(buf, ": ENOENT: Linux registered no cpu event source (no PMU driver"));
    metal.cpu_pmu = true;
    pmu_linux_refusal(buf, sizeof buf, &hw, "instructions", PMU_LINUX_ENOENT, &metal);
    assert_non_null(strstr(buf, ": ENOENT: this PMU does not have the event"));
    /* perf_event_paranoid: 2 forbids the kernel to the unprivileged, Debian's 3 everything. */
    pmu_linux_refusal(buf, sizeof buf, &sw, "page-faults", PMU_LINUX_EACCES, &metal);
    assert_string_equal(buf, "perf_event_open(PERF_TYPE_SOFTWARE page-faults): EACCES: perf_event_paranoid "
                             "is 2: counting the kernel needs CAP_PERFMON or 1 or less");
    metal.paranoid = 3;
    pmu_linux_refusal(buf, sizeof buf, &hw, "cycles", PMU_LINUX_EPERM, &metal);
    assert_non_null(strstr(buf, "(PERF_TYPE_HARDWARE cycles): EPERM: perf_event_paranoid is 3: no perf events"));
    pmu_linux_refusal(buf, sizeof buf, &hw, NULL, PMU_LINUX_ENOSYS, &metal);
    assert_non_null(strstr(buf, "perf_event_open(PERF_TYPE_HARDWARE raw): ENOSYS: no perf_event_open"));
    pmu_linux_refusal(buf, sizeof buf, &hw, "cycles", 77, &metal);
    assert_string_equal(buf, "perf_event_open(PERF_TYPE_HARDWARE cycles): errno 77: refused");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_rings),
        cmocka_unit_test(test_raw),
        cmocka_unit_test(test_refusal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
