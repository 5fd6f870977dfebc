/* The CPU section of the log: the JSON record carries the decoded fields and
 * every raw leaf, and those raw leaves, parsed back out of the log text,
 * decode on the host to the same CPU. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "record/log.h"
#include "report/write.h"
#include "support/capture.h"
#include "cpu_dumps/dump.h"
#include "cpu_dumps/intel_skylake_506e3.h"
#include "cpu_dumps/amd_k6_2_580.h"

static struct cpu_info decoded;
static struct cpuid_leaf_raw parsed[CPU_RAW_MAX];

static const char *report_of(const struct cpu_dump *d)
{
    sim_start(d);
    cpu_probe_platform(&sim_ops);
    assert_int_equal(sim.violations, 0);
    log_reset();
    capture_reset();
    write_cpu(cpu, NULL, NULL);
    return capture_machine();
}

/* The one "cpu" line of the machine channel. */
static const char *cpu_line(const char *machine)
{
    const char *line = strstr(machine, "{\"type\":\"cpu\"");
    assert_non_null(line);
    assert_null(strstr(line + 1, "{\"type\":\"cpu\""));
    return line;
}

static unsigned parse_raw(const char *line)
{
    unsigned n = 0;
    const char *p = strstr(line, "\"raw\":[");
    assert_non_null(p);
    while ((p = strstr(p, "{\"leaf\":")) && n < CPU_RAW_MAX) {
        unsigned leaf, sub, a, b, c, d;
        int got = sscanf(p, "{\"leaf\":\"0x%x\",\"subleaf\":%u,\"eax\":\"0x%x\",\"ebx\":\"0x%x\","
                            "\"ecx\":\"0x%x\",\"edx\":\"0x%x\"}",
                         &leaf, &sub, &a, &b, &c, &d);
        assert_int_equal(got, 6);
        parsed[n].leaf = leaf, parsed[n].subleaf = sub;
        parsed[n].r = (struct cpuid_regs){ a, b, c, d };
        n++;
        p++;
    }
    return n;
}

static void test_record_fields(void **state)
{
    (void)state;
    const char *line = cpu_line(report_of(&dump_intel_skylake_506e3));
    assert_non_null(strstr(line, "\"generation\":\"cpuid\""));
    assert_null(strstr(line + 2, "\"type\":")); /* the record's own key stays unique */
    assert_non_null(strstr(line, "\"vendor\":\"Intel\",\"vendor_string\":\"GenuineIntel\""));
    assert_non_null(strstr(line, "\"family\":6,\"model\":94,\"stepping\":3,\"processor_type\":0"));
    assert_non_null(strstr(line, "\"name\":\"Skylake\""));
    assert_non_null(strstr(line, "\"brand\":\"Intel(R) Core(TM) i5-6400T CPU @ 2.20GHz\""));
    assert_non_null(strstr(line, "\"features\":[\"fpu\",\"vme\","));
    assert_non_null(strstr(line, "\"avx2\""));
    assert_non_null(strstr(line, "\"invariant_tsc\""));
    assert_null(strstr(line, "\"avx512f\""));
    assert_non_null(strstr(line, "{\"kind\":\"unified\",\"level\":3,\"size\":6291456,\"ways\":12,"
                                 "\"full\":false,\"line\":64}"));
    assert_non_null(strstr(line, "{\"kind\":\"instruction-tlb\",\"level\":1,\"entries\":8,"
                                 "\"ways\":0,\"full\":true,\"page_kib\":2048}"));
    assert_non_null(strstr(line, "\"invariant_tsc\":true"));
    assert_non_null(strstr(line, "\"perfmon\":{\"version\":4,\"gp_counters\":8,\"gp_width\":48,"
                                 "\"fixed_counters\":3,\"fixed_width\":48,"));
    assert_non_null(strstr(line, "\"clock\":{\"tsc_ratio_num\":184,\"tsc_ratio_den\":2,"
                                 "\"crystal_hz\":0,\"base_mhz\":2200,\"max_mhz\":2800,\"bus_mhz\":100}"));
    assert_non_null(strstr(line, "\"hypervisor\":null"));
    assert_non_null(strstr(line, "{\"leaf\":\"0x1\",\"subleaf\":0,\"eax\":\"0x506e3\","
                                 "\"ebx\":\"0x100800\",\"ecx\":\"0x7ffafbff\",\"edx\":\"0xbfebfbff\"}"));
    assert_non_null(strstr(line, "{\"leaf\":\"0x4\",\"subleaf\":3,"));
}

static void test_log_decodes_again(void **state)
{
    (void)state;
    const char *line = cpu_line(report_of(&dump_intel_skylake_506e3));
    unsigned n = parse_raw(line);
    assert_int_equal(n, cpu->nraw);
    cpu_decode_raw(&decoded, parsed, n);
    assert_string_equal(decoded.name, "Skylake");
    assert_string_equal(decoded.brand, cpu->brand);
    assert_memory_equal(decoded.features, cpu->features, sizeof decoded.features);
    assert_int_equal(decoded.ncaches, cpu->ncaches);
    assert_memory_equal(decoded.caches, cpu->caches, sizeof decoded.caches);
    assert_memory_equal(&decoded.clock, &cpu->clock, sizeof decoded.clock);
}

static void test_readable_section(void **state)
{
    (void)state;
    report_of(&dump_amd_k6_2_580);
    const char *text = capture_human();
    assert_non_null(strstr(text, "== CPU =="));
    assert_non_null(strstr(text, "  name:     K6-2\n"));
    assert_non_null(strstr(text, "  vendor:   AMD (\"AuthenticAMD\")\n"));
    assert_non_null(strstr(text, "  brand:    AMD-K6(tm) 3D processor\n"));
    assert_non_null(strstr(text, "L1 data: 32 KiB, 2-way, 32-byte lines\n"));
    assert_non_null(strstr(text, "L1 instruction-tlb: 64 entries, 4 KiB pages, 1-way\n"));
    assert_non_null(strstr(text, "3dnow"));
    assert_non_null(strstr(text, "  invariant TSC: no\n"));
}

static void test_no_cpuid_record(void **state)
{
    (void)state;
    sim_start_pre_cpuid(false, false);
    cpu_probe_platform(&sim_ops);
    log_reset();
    capture_reset();
    write_cpu(cpu, NULL, NULL);
    const char *line = cpu_line(capture_machine());
    assert_non_null(strstr(line, "\"generation\":\"386\",\"fpu\":false,\"vendor\":\"unknown\""));
    assert_non_null(strstr(line, "\"name\":\"386-class (no CPUID)\""));
    assert_non_null(strstr(line, "\"features\":[]"));
    assert_non_null(strstr(line, "\"raw\":[]"));
    assert_non_null(strstr(capture_machine(), "\"type\":\"note\",\"level\":\"info\",\"topic\":\"cpu\""));
    assert_non_null(strstr(capture_human(), "EFLAGS.AC cannot be toggled"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_fields),
        cmocka_unit_test(test_log_decodes_again),
        cmocka_unit_test(test_readable_section),
        cmocka_unit_test(test_no_cpuid_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
