/* A result's expectation names its source (issue 21): the record carries
 * "expect_source" in full and the expectation's "kind" in one word, and the
 * readable row's verdict column shows the word; without an expectation the
 * record has no "expect_source" and the verdict column "-". The rows are
 * written by the report's own writer and rendered by the text format. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "record/log.h"
#include "report/write.h"
#include "uarch/llvm_model.h"
#include "capture.h"

static const struct bench imul = { .name = "lat/imul", .desc = "imul eax, ebx" };
static struct measurement m;
static struct event_counts ec = { .cycles_index = -1 };

static void result(const struct uarch *u, const struct uarch_expect *e, const char *verdict)
{
    m = (struct measurement){ .unroll = 8, .loops = 100, .samples = 5, .value_x100 = 300,
                              .methods_agree = true, .stable = true };
    struct result r = { .b = &imul, .m = &m, .ec = &ec, .have_cycles = true, .cycles_x100 = 300,
                        .cycles_unit = "exact", .time_unit = "tsc", .trusted = true,
                        .expect = e, .expect_uarch = u, .tolerance_x100 = 30, .verdict = verdict };
    write_result(&r);
}

/* The line of the readable output that starts with the benchmark's row. */
static const char *row_of(const char *all, char *buf, size_t size)
{
    const char *at = strstr(all, "  lat/imul ");
    assert_non_null(at);
    size_t n = strcspn(at, "\n");
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), at);
    return buf;
}

static void the_verdict_names_the_source(void **state)
{
    (void)state;
    char row[160];
    const struct uarch *spr = uarch_named("sapphirerapids");
    assert_non_null(spr);
    const struct uarch_expect *e = uarch_table_row(spr, "lat/imul");
    assert_non_null(e);
    capture_reset();
    log_begin("unit-test", "", false, 0);
    result(spr, e, "ok");
    assert_non_null(strstr(row_of(capture_human(), row, sizeof row), "sapphirerapids 3.00"));
    assert_non_null(strstr(row, " ok, LLVM"));
    assert_non_null(strstr(capture_machine(), "\"kind\":\"LLVM\"},\"expect_source\":\"LLVM 16 sapphirerapids model\""));

    const struct uarch *p5 = uarch_named("P5");
    capture_reset();
    result(p5, uarch_table_row(p5, "lat/imul"), "off");
    assert_non_null(strstr(row_of(capture_human(), row, sizeof row), " off, model"));
    assert_non_null(strstr(capture_machine(), "\"expect_source\":\"P5 pairing model (scripts/p5model.py)\""));

    capture_reset();
    result(NULL, NULL, "no expectation");
    assert_non_null(strstr(row_of(capture_human(), row, sizeof row), "  -                 -"));
    assert_non_null(strstr(capture_machine(), "\"expect\":null,\"verdict\""));
    assert_null(strstr(capture_machine(), "expect_source"));
}

/* The one-word kinds of every source cyclekit states. */
static void sources_sort_into_kinds(void **state)
{
    (void)state;
    assert_string_equal(uarch_source_kind("LLVM 16 znver4 model"), "LLVM");
    assert_string_equal(uarch_source_kind("P5 pairing model (scripts/p5model.py)"), "model");
    assert_string_equal(uarch_source_kind("measured on silicon, cited: [IX1] InstLatX64"), "cited");
    assert_string_equal(uarch_source_kind("[IL] InstLatX86, P54C (docs/references.md)"), "cited");
    assert_string_equal(uarch_source_kind("the benchmark file"), "file");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_verdict_names_the_source),
        cmocka_unit_test(sources_sort_into_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
