/* TAP13 results (format=tap), for test harnesses that read the Test
 * Anything Protocol: https://testanything.org/tap-version-13-specification.html
 *
 *   TAP version 13                     at the begin record
 *   ok 1 - lat/add                     a result
 *     ---                              its numbers: the record's top-level
 *     ticks: 1.00                      values (and nested objects) as YAML
 *     ...
 *   not ok 2 - lat/mul                 a result off its expectation, or a
 *     ---                              benchmark that faulted: its block
 *     message: "measured outside..."   says why first
 *   ok 3 - p5/agi # SKIP no P5         a skipped benchmark, with why
 *   ok 4 - lat/add # flagged U         a result whose marks are not "ok":
 *                                      still ok (it was measured), the
 *                                      directive names its marks (TAP13
 *                                      lets a line end in "# comment")
 *   1..3                               the plan, at the end record
 *
 * Lines go to OUT_MACHINE (the serial log beside the JSON lines; lines that
 * are not TAP are ignored by TAP consumers). Arrays (histogram, counters)
 * stay in the JSON record. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/utf8.h"
#include "platform/out.h"
#include "platform/platform.h"
#include "formats.h"

static unsigned tests; /* test points written since the begin record */

static void tap_reset(void) { tests = 0; }

static void to_machine(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    out_write(OUT_MACHINE, text, len);
}

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kvprintf_to(to_machine, NULL, fmt, ap);
    va_end(ap);
}

/* A description or directive on one line: '#' escaped (TAP13), line breaks as spaces. */
static void one_line(char *out, size_t size, const char *s)
{
    size_t o = 0;
    for (; *s && o + 2 < size; s++) {
        if (*s == '#')
            out[o++] = '\\';
        out[o++] = (*s == '\n' || *s == '\r') ? ' ' : *s;
    }
    out[o] = '\0';
}

/* A YAML double-quoted scalar: quotes and backslashes escaped, control
 * bytes as \xNN (YAML 1.2, section 5.7); text as UTF-8 as it is (a \xNN of
 * each byte of "§" would be two other characters), a byte that starts no
 * well-formed sequence as U+FFFD (lib/utf8.h). */
static void yaml_string(const struct field *f, char *out, size_t size)
{
    size_t o = 0;
    out[o++] = '"';
    for (uint32_t i = 0; i < f->len && o + 6 < size;) {
        unsigned char c = (unsigned char)f->v.s[i];
        size_t len = utf8_sequence(f->v.s + i, f->len - i);
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            o += (size_t)ksnprintf(out + o, size - o, "\\x%02x", c);
        } else if (len == 0) {
            kmemcpy(out + o, UTF8_REPLACEMENT, 3);
            o += 3;
            len = 1;
        } else {
            kmemcpy(out + o, f->v.s + i, len);
            o += len;
        }
        i += (uint32_t)len;
    }
    out[o++] = '"';
    out[o] = '\0';
}

/* The fields from index i to the end of its object, indented; nested
 * objects as nested maps, arrays left out. */
static void yaml_map(const struct record *r, int i, unsigned indent)
{
    for (; i >= 0 && (unsigned)i < r->n; i = record_after(r, i)) {
        const struct field *f = &r->field[i];
        if (f->kind == FIELD_OBJ_CLOSE || f->kind == FIELD_ARR_CLOSE)
            return;
        if (!f->key || f->kind == FIELD_ARR_OPEN || f->kind == FIELD_U64_LIST ||
            f->kind == FIELD_RUN_ID || f->kind == FIELD_CHECKSUM)
            continue;
        if (f->kind == FIELD_OBJ_OPEN) {
            put("%*s%s:\n", (int)indent, "", f->key);
            yaml_map(r, i + 1, indent + 2);
            continue;
        }
        char v[256];
        if (f->kind == FIELD_STR)
            yaml_string(f, v, sizeof v);
        else
            format_scalar(f, v, sizeof v);
        put("%*s%s: %s\n", (int)indent, "", f->key, v);
    }
}

static void test_point(bool ok, const char *name, const char *directive)
{
    char desc[160];
    one_line(desc, sizeof desc, name);
    put("%s %u - %s%s\n", ok ? "ok" : "not ok", ++tests, desc, directive);
}

/* message: why a test point is not ok (TAP13's usual first key), or NULL. */
static void yaml_block(const struct record *r, const char *message)
{
    put("  ---\n");
    if (message)
        put("  message: \"%s\"\n", message);
    yaml_map(r, 0, 2);
    put("  ...\n");
}

static void tap_record(const struct record *r)
{
    if (record_is(r, "begin")) {
        tests = 0;
        put("TAP version 13\n");
    } else if (record_is(r, "result")) {
        bool off = kstrcmp(format_str(r, "verdict", ""), "off") == 0;
        const char *marks = format_str(r, "marks", "ok");
        char flagged[24] = "";
        if (kstrcmp(marks, "ok") != 0)
            ksnprintf(flagged, sizeof flagged, " # flagged %s", marks);
        test_point(!off, format_str(r, "name", "?"), flagged);
        yaml_block(r, off ? "measured outside the expectation's tolerance" : NULL);
    } else if (record_is(r, "skip")) {
        char why[200], directive[210];
        one_line(why, sizeof why, format_str(r, "reason", ""));
        ksnprintf(directive, sizeof directive, " # SKIP %s", why);
        test_point(true, format_str(r, "name", "?"), directive);
    } else if (record_is(r, "fault")) {
        const char *where = format_str(r, "where", "");
        if (kstrncmp(where, "benchmark ", 10) != 0)
            return; /* the self-test's provoked faults are not benchmarks */
        test_point(false, where + 10, "");
        yaml_block(r, "the benchmark faulted and was stopped");
    } else if (record_is(r, "end")) {
        put("1..%u\n", tests);
    }
}

const struct format format_tap = {
    .name = "tap",
    .record = tap_record,
    .reset = tap_reset,
};
