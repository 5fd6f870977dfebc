/* JSON lines are valid UTF-8 and valid JSON for every record type, with
 * non-ASCII text (issue 20, point 8: "SDM Vol. 3A §6.15" arrived as
 * \u00c2\u00a7, each byte escaped as if it were a code point). Each record
 * type the kernel writes (RECORD_TYPES; tests/tools/test_json_utf8.py
 * checks the list against every rec_open in kernel/) is built with
 * non-ASCII strings in every place a string goes (values, keys, nested
 * objects and arrays) and run through the JSON sink; then a few real
 * writers (note, skip, result). Every line must be well-formed UTF-8 (a
 * validator of its own here, by code points, not the kernel's table), parse
 * as one JSON object (a small recursive-descent parser of RFC 8259), keep
 * the characters as they are, and show U+FFFD for the invalid bytes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "harness/result.h"
#include "record/log.h"
#include "report/write.h"

static const char *const RECORD_TYPES[] = {
    "begin", "bench", "c2c", "clock", "cpu", "cycles", "done", "end", "error", "fault", "module",
    "msrscan", "note", "platform", "pmu", "pmu_restore", "progress", "result", "sample", "samples", "step",
    "selftest", "serve", "sibling", "skip", "smp", "smp_loaded", "sweep", "timer",
    "topology", "trust", "tsc_sync",
};

#define SECTION "SDM Vol. 3A \xc2\xa7" "6.15"          /* § U+00A7: two bytes */
#define MICRO "2 \xc2\xb5s, 3 \xe2\x80\x94 \xe2\x89\xa4 4" /* µ, em dash, ≤ */
#define EMOJI "\xf0\x9f\x94\xa5"                       /* U+1F525: four bytes */
/* Not UTF-8: a lone continuation byte, an overlong '/', a surrogate, a cut
 * sequence at the end. Each byte that starts no sequence becomes U+FFFD. */
#define BROKEN "a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82"

/* ---- UTF-8, by decoding code points ---- */
static bool valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > n)
            return false;
        uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += len;
    }
    return true;
}

/* ---- JSON (RFC 8259), recursive descent; p advances past what it read ---- */
static bool json_value(const char **p);

static void ws(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n')
        (*p)++;
}

static bool json_string(const char **p)
{
    if (*(*p)++ != '"')
        return false;
    for (;;) {
        unsigned char c = (unsigned char)*(*p)++;
        if (c == '"')
            return true;
        if (c < 0x20) /* the end of the text, or a raw control character */
            return false;
        if (c != '\\')
            continue;
        c = (unsigned char)*(*p)++;
        if (c == 'u') {
            for (int k = 0; k < 4; k++, (*p)++)
                if (!strchr("0123456789abcdefABCDEF", **p) || !**p)
                    return false;
        } else if (!c || !strchr("\"\\/bfnrt", c)) {
            return false;
        }
    }
}

static bool json_number(const char **p)
{
    const char *start = *p;
    if (**p == '-')
        (*p)++;
    if (**p < '0' || **p > '9')
        return false;
    while ((**p >= '0' && **p <= '9') || **p == '.' || **p == 'e' || **p == 'E' || **p == '+' || **p == '-')
        (*p)++;
    return *p > start;
}

static bool json_members(const char **p, char close, bool keys)
{
    (*p)++;
    ws(p);
    if (**p == close)
        return (*p)++, true;
    for (;;) {
        ws(p);
        if (keys) {
            if (!json_string(p))
                return false;
            ws(p);
            if (*(*p)++ != ':')
                return false;
        }
        if (!json_value(p))
            return false;
        ws(p);
        char c = *(*p)++;
        if (c == close)
            return true;
        if (c != ',')
            return false;
    }
}

static bool json_value(const char **p)
{
    ws(p);
    switch (**p) {
    case '{': return json_members(p, '}', true);
    case '[': return json_members(p, ']', false);
    case '"': return json_string(p);
    case 't': return strncmp(*p, "true", 4) == 0 ? (*p += 4, true) : false;
    case 'f': return strncmp(*p, "false", 5) == 0 ? (*p += 5, true) : false;
    case 'n': return strncmp(*p, "null", 4) == 0 ? (*p += 4, true) : false;
    default: return json_number(p);
    }
}

/* Every line of the machine channel: valid UTF-8, one JSON object each. */
static unsigned check_lines(const char *text)
{
    unsigned lines = 0;
    for (const char *line = text; *line; lines++) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        assert_true(valid_utf8((const unsigned char *)line, (size_t)(nl - line)));
        const char *p = line;
        assert_int_equal(*p, '{');
        if (!json_value(&p) || p != nl)
            fail_msg("not one JSON object: %.*s", (int)(nl - line), line);
        line = nl + 1;
    }
    return lines;
}

static void every_record_type_is_valid_utf8_json(void **state)
{
    (void)state;
    size_t ntypes = sizeof RECORD_TYPES / sizeof RECORD_TYPES[0];
    for (size_t t = 0; t < ntypes; t++) {
        capture_reset();
        rec_open(RECORD_TYPES[t]);
        rec_str("name", SECTION);
        rec_str("desc", MICRO " " EMOJI);
        rec_str("reason", BROKEN);
        rec_str("ctl", "tab\there, bell\x07, del\x7f");
        rec_str("cl\xc3\xa9", "key with \xc3\xa9");
        rec_fixed("ticks", 105, 2);
        rec_obj_open("expect");
        rec_str("uarch", "Zen \xe2\x85\xa3");
        rec_arr_open("list");
        rec_str(NULL, SECTION);
        rec_obj_open(NULL);
        rec_str("event", "\xc2\xb5op");
        rec_obj_close();
        rec_arr_close();
        rec_obj_close();
        rec_close();
        const char *out = capture_machine();
        assert_int_equal(check_lines(out), 1);
        assert_non_null(strstr(out, "\"name\":\"" SECTION "\""));
        assert_non_null(strstr(out, "\"desc\":\"" MICRO " " EMOJI "\""));
        assert_non_null(strstr(out, "\"reason\":\"a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd"
                                    "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "d\xef\xbf\xbd\xef\xbf\xbd\""));
        assert_non_null(strstr(out, "\"ctl\":\"tab\\there, bell\\u0007, del\\u007f\""));
        assert_non_null(strstr(out, "\"cl\xc3\xa9\":\"key with \xc3\xa9\""));
        assert_non_null(strstr(out, "[\"" SECTION "\",{\"event\":\"\xc2\xb5op\"}]"));
        assert_null(strstr(out, "\\u00c2"));
    }
}

/* The writers themselves, with the text the issue saw. */
static void real_writers_keep_the_section_sign(void **state)
{
    (void)state;
    capture_reset();
    log_note("info", "fault", "alignment checks apply only at CPL 3 (" SECTION " Interrupt 17)");
    write_skip("fault/ac", "ring 3 cannot set them (" SECTION ")");
    static const struct bench b = { .name = "lat/\xc2\xb5op", .desc = "`imul` \xe2\x80\x94 " SECTION };
    static struct measurement m = { .unroll = 8, .loops = 100, .samples = 5, .value_x100 = 300 };
    static struct event_counts ec = { .cycles_index = -1 };
    struct result r = { .b = &b, .m = &m, .ec = &ec, .cycles_unit = "estimate", .time_unit = "tsc",
                        .verdict = "no expectation" };
    write_result(&r);
    const char *out = capture_machine();
    assert_int_equal(check_lines(out), 3);
    const char *at = out;
    unsigned signs = 0;
    while ((at = strstr(at, "\xc2\xa7")) != NULL)
        signs++, at += 2;
    assert_int_equal(signs, 3);
    assert_non_null(strstr(out, "\"name\":\"lat/\xc2\xb5op\""));
}

/* The checkers themselves catch what they must (else the tests above
 * could pass on anything). */
static void the_checkers_refuse_bad_text(void **state)
{
    (void)state;
    assert_false(valid_utf8((const unsigned char *)"\xc0\xaf", 2));
    assert_false(valid_utf8((const unsigned char *)"\xed\xa0\x80", 3));
    assert_false(valid_utf8((const unsigned char *)"\xf4\x90\x80\x80", 4));
    assert_false(valid_utf8((const unsigned char *)"\xe2\x82", 2));
    assert_true(valid_utf8((const unsigned char *)SECTION EMOJI, strlen(SECTION EMOJI)));
    const char *bad[] = { "{\"a\":\"x\ty\"}", "{\"a\":\"\\x41\"}", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":tru}" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *p = bad[i];
        assert_false(json_value(&p) && *p == '\0');
    }
    const char *good = "{\"a\":[1,-2.5e3,\"\\u00e9\",{},[],null,true,false]}";
    assert_true(json_value(&good) && *good == '\0');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_record_type_is_valid_utf8_json),
        cmocka_unit_test(real_writers_keep_the_section_sign),
        cmocka_unit_test(the_checkers_refuse_bad_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
