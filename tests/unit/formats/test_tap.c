/* The TAP13 format (format=tap): its lines from records written by the
 * report's own writers, checked exactly: the version line, one test point
 * per result, skip and faulted benchmark, skips marked, the plan matching the
 * count; nothing of it without format=tap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "options/option.h"
#include "options/settings.h"
#include "record/log.h"
#include "report/write.h"
#include "capture.h"

static const struct bench add_bench = { .name = "lat/add", .desc = "add eax, ebx" };
static const struct bench mul_bench = { .name = "lat/mul", .desc = "imul eax, ebx" };
static struct measurement m;
static struct event_counts ec = { .cycles_index = -1 };

/* A result as the harness leaves it (expectation and verdict set by hand:
 * the TAP format reads the verdict the record carries). */
static void result(const struct bench *b, int64_t ticks_x100, const char *verdict)
{
    m = (struct measurement){ .unroll = 8, .loops = 100, .samples = 5, .value_x100 = ticks_x100,
                              .methods_agree = true, .stable = true };
    struct result r = { .b = b, .m = &m, .ec = &ec, .have_cycles = true, .cycles_x100 = ticks_x100,
                        .cycles_unit = "exact", .time_unit = "tsc", .trusted = true,
                        .verdict = verdict };
    write_result(&r);
}

static void a_run(void)
{
    log_begin("unit-test", "format=tap", false, 0);
    result(&add_bench, 100, "no expectation");
    result(&mul_bench, 1100, "off");
    write_skip("p5/agi", "needs a P5 # family 5");
    struct fault_info de = { .vector = 0, .eip = 0x1234 };
    write_fault("benchmark lat/div", &de);
    write_fault("self-test #UD", &de); /* not a benchmark: no test point */
    log_end(0);
}

/* The output's lines that are not JSON records, joined by '\n'. */
static const char *tap_lines(char *buf, size_t size)
{
    size_t o = 0;
    for (const char *l = capture_machine(); *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
        if (*l != '{' && o + n < size) {
            memcpy(buf + o, l, n);
            o += n;
        }
        l += n;
    }
    buf[o] = '\0';
    return buf;
}

/* Only the lines that are not in a YAML block. */
static const char *outside_yaml(const char *all, char *buf, size_t size)
{
    size_t o = 0;
    bool in = false;
    for (const char *l = all; *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = (size_t)(nl - l) + 1;
        if (!strncmp(l, "  ---\n", 6))
            in = true;
        if (!in && o + n < size) {
            memcpy(buf + o, l, n);
            o += n;
        }
        if (!strncmp(l, "  ...\n", 6))
            in = false;
        l += n;
    }
    buf[o] = '\0';
    return buf;
}

static int setup(void **state)
{
    (void)state;
    settings_defaults(); /* the option table (options/settings.c), as the mains do */
    log_reset();
    capture_reset();
    return 0;
}

static void test_points_and_plan(void **state)
{
    (void)state;
    static char all[65536], points[4096];
    options_parse("format=tap");
    a_run();
    assert_string_equal(outside_yaml(tap_lines(all, sizeof all), points, sizeof points),
                        "TAP version 13\n"
                        "ok 1 - lat/add\n"
                        "not ok 2 - lat/mul\n"
                        "ok 3 - p5/agi # SKIP needs a P5 \\# family 5\n"
                        "not ok 4 - lat/div\n"
                        "1..4\n");
}

static void yaml_blocks_carry_the_numbers(void **state)
{
    (void)state;
    static char all[65536];
    options_parse("format=tap");
    a_run();
    tap_lines(all, sizeof all);
    /* The first result's block: its top-level fields, nested objects as maps. */
    const char *block = strstr(all, "ok 1 - lat/add\n  ---\n  name: \"lat/add\"\n  desc: \"add eax, ebx\"\n"
                                    "  unroll: 8\n  loops: 100\n  samples: 5\n  cold: false\n  ticks: 1.00\n");
    assert_non_null(block);
    assert_non_null(strstr(block, "  cycles: 1.00\n  cycles_unit: \"exact\"\n"));
    assert_non_null(strstr(block, "  stats:\n    min: 0.00\n"));
    assert_non_null(strstr(block, "  expect: null\n  verdict: \"no expectation\"\n  ...\nnot ok 2"));
    assert_non_null(strstr(all, "not ok 2 - lat/mul\n  ---\n  message: \"measured outside the expectation's "
                                "tolerance\"\n  name: \"lat/mul\"\n"));
    assert_non_null(strstr(all, "  ticks: 11.00\n"));
    /* The fault's block, whole. */
    assert_non_null(strstr(all, "not ok 4 - lat/div\n  ---\n  message: \"the benchmark faulted and was stopped\"\n"
                                "  where: \"benchmark lat/div\"\n  vector: 0\n"
                                "  name: \"#DE\"\n  error_code: 0x0\n  eip: 0x1234\n  mode: 32\n  cr0: 0x0\n  cr2: 0x0\n"
                                "  cr4: 0x0\n  eflags: 0x0\n  ...\n1..4\n"));
}

static void default_output_has_no_tap(void **state)
{
    (void)state;
    static char all[65536];
    a_run();
    assert_string_equal(tap_lines(all, sizeof all), "");
    assert_non_null(strstr(capture_human(), "  p5/agi                          skipped: needs a P5 # family 5\n"));
}

static void unknown_format_is_named(void **state)
{
    (void)state;
    static char all[65536];
    options_parse("format=tap,csv");
    a_run();
    assert_non_null(strstr(capture_machine(), "{\"type\":\"note\",\"level\":\"warn\",\"topic\":\"option\","
                                              "\"text\":\"format=tap,csv: no format 'csv' (there are text, "
                                              "json, screen, tap); ignored, the others are used\"}\n"));
    assert_non_null(strstr(tap_lines(all, sizeof all), "\n1..4\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_points_and_plan, setup),
        cmocka_unit_test_setup(yaml_blocks_carry_the_numbers, setup),
        cmocka_unit_test_setup(default_output_has_no_tap, setup),
        cmocka_unit_test_setup(unknown_format_is_named, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
