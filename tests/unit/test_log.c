/* The report: exact JSON lines, escaping, nesting, count and checksum. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "record/log.h"

static int setup(void **state)
{
    (void)state;
    log_reset();
    capture_reset();
    return 0;
}

static uint32_t fnv1a(const char *s, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x01000193u;
    return h;
}

static void record_fields(void **state)
{
    (void)state;
    rec_open("result");
    rec_str("name", "p5/agi");
    rec_u64("n", 18446744073709551615ull);
    rec_i64("d", -5);
    rec_hex("h", 0xabc);
    rec_fixed("v", 305, 2);
    rec_fixed("neg", -7, 2);
    rec_fixed("int", 42, 0);
    rec_bool("b", true);
    rec_null("z");
    rec_close();
    assert_string_equal(capture_machine(),
        "{\"type\":\"result\",\"name\":\"p5/agi\",\"n\":18446744073709551615,\"d\":-5,"
        "\"h\":\"0xabc\",\"v\":3.05,\"neg\":-0.07,\"int\":42,\"b\":true,\"z\":null}\n");
    assert_int_equal(log_records(), 1);
}

static void escaping(void **state)
{
    (void)state;
    rec_open("note");
    /* "§" (C2 A7) as it is; the lone FF is no UTF-8: U+FFFD (EF BF BD). */
    rec_str("text", "a\"b\\c\nd\te\x01\xff \xc2\xa7" "6.15\x7f");
    rec_close();
    assert_string_equal(capture_machine(),
        "{\"type\":\"note\",\"text\":\"a\\\"b\\\\c\\nd\\te\\u0001\xef\xbf\xbd \xc2\xa7" "6.15\\u007f\"}\n");
}

static void nesting(void **state)
{
    (void)state;
    rec_open("cpu");
    rec_arr_open("features");
    rec_str(NULL, "fpu");
    rec_str(NULL, "tsc");
    rec_arr_close();
    rec_arr_open("caches");
    rec_obj_open(NULL);
    rec_u64("level", 1);
    rec_obj_close();
    rec_obj_open(NULL);
    rec_u64("level", 2);
    rec_obj_close();
    rec_arr_close();
    rec_obj_open("empty");
    rec_obj_close();
    rec_close();
    assert_string_equal(capture_machine(),
        "{\"type\":\"cpu\",\"features\":[\"fpu\",\"tsc\"],\"caches\":[{\"level\":1},{\"level\":2}],"
        "\"empty\":{}}\n");
}

static void unclosed_levels_are_closed(void **state)
{
    (void)state;
    rec_open("x");
    rec_arr_open("a");
    rec_obj_open(NULL);
    rec_close();
    assert_string_equal(capture_machine(), "{\"type\":\"x\",\"a\":[{}]}\n");
}

static void end_record_counts_and_checksums(void **state)
{
    (void)state;
    log_begin("bare", "a=1", false, 0);
    log_note("warn", "cmdline", "bad %s", "thing");
    rec_open("r");
    rec_close();
    log_end(2);
    const char *m = capture_machine();
    /* Recompute over the three record lines, newline excluded. */
    uint32_t h = 0x811c9dc5u;
    const char *line = m;
    for (int i = 0; i < 3; i++) {
        const char *nl = strchr(line, '\n');
        h = fnv1a(line, (size_t)(nl - line), h);
        line = nl + 1;
    }
    char expected[128];
    snprintf(expected, sizeof expected,
             "{\"type\":\"end\",\"records\":3,\"checksum\":\"0x%x\",\"status\":2,\"errors\":0,"
             "\"trust\":\"trusted\",\"flagged\":0,\"run\":\"0x", h);
    assert_memory_equal(line, expected, strlen(expected));
    assert_non_null(strstr(capture_human(), "[warn] cmdline: bad thing\n"));
    assert_non_null(strstr(m, "{\"type\":\"begin\",\"schema\":2,\"program\":\"cyclekit\","
                              "\"version\":\""));
    assert_non_null(strstr(m, "\"platform\":\"bare\",\"cmdline\":\"a=1\",\"run\":\"0x"));
    /* The end record repeats the begin record's run id. */
    const char *run = strstr(m, "\"run\":\"");
    assert_non_null(run);
    char want[40];
    memcpy(want, run, 26);
    want[26] = 0;
    assert_non_null(strstr(line, want));
}

static void error_notes_are_counted(void **state)
{
    (void)state;
    log_note("info", "t", "x");
    log_note("error", "t", "y");
    assert_int_equal(log_errors(), 1);
    assert_int_equal(log_records(), 2);
}

/* The end record's trust: untrusted when the timer is (even with every
 * result fine), else flagged when a result is, else trusted. */
static void the_end_record_tallies_trust(void **state)
{
    (void)state;
    log_tally_timer(true);
    log_tally_result(false, false);
    assert_string_equal(log_trust_word(), "trusted");
    log_tally_result(true, false);
    log_tally_result(true, false);
    assert_string_equal(log_trust_word(), "flagged");
    log_end(0);
    assert_non_null(strstr(capture_machine(), "\"errors\":0,\"trust\":\"flagged\",\"flagged\":2,"));
    assert_int_equal(log_trust()->results, 3);
    log_tally_timer(false);
    assert_string_equal(log_trust_word(), "untrusted");
    log_reset();
    assert_string_equal(log_trust_word(), "trusted");
    assert_int_equal(log_trust()->flagged, 0);
    log_tally_result(true, true);
    assert_string_equal(log_trust_word(), "untrusted");
}

static void long_record_stays_one_line(void **state)
{
    (void)state;
    rec_open("big");
    rec_arr_open("v");
    for (int i = 0; i < 5000; i++)
        rec_u64(NULL, 1000000 + i);
    rec_arr_close();
    rec_close();
    const char *m = capture_machine();
    assert_int_equal(strchr(m, '\n') - m, (long)strlen(m) - 1);
    assert_string_equal(m + strlen(m) - 10, "1004999]}\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(record_fields, setup),
        cmocka_unit_test_setup(escaping, setup),
        cmocka_unit_test_setup(nesting, setup),
        cmocka_unit_test_setup(unclosed_levels_are_closed, setup),
        cmocka_unit_test_setup(end_record_counts_and_checksums, setup),
        cmocka_unit_test_setup(error_notes_are_counted, setup),
        cmocka_unit_test_setup(the_end_record_tallies_trust, setup),
        cmocka_unit_test_setup(long_record_stays_one_line, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
