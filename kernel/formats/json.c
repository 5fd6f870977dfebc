/* JSON lines: every record as one JSON object on OUT_MACHINE, with a running
 * count and FNV-1a checksum, so the reader of a log can tell a complete run
 * from one that was cut short (record/log.h describes the begin and end
 * records). JSON: RFC 8259, https://www.rfc-editor.org/rfc/rfc8259 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/utf8.h"
#include "platform/out.h"
#include "platform/platform.h"
#include "record/record.h"
#include "formats.h"

#define FNV_OFFSET 0x811c9dc5u
#define FNV_PRIME 0x01000193u
#define NEST_MAX 8

static struct {
    uint32_t checksum;
    uint64_t run;            /* the run id: in the begin and the end record */
    int depth;               /* 0: record level; >0 inside objects/arrays */
    bool need_comma[NEST_MAX + 1];
    char closer[NEST_MAX + 1]; /* '}' or ']' for each open level */
    int ignored;             /* levels opened beyond NEST_MAX: written nowhere */
    char line[16384];        /* one record is written whole, so text never splits it */
    size_t len;
} js = { .checksum = FNV_OFFSET };

static void json_reset(void)
{
    kmemset(&js, 0, sizeof js);
    js.checksum = FNV_OFFSET;
}

static void flush_line(void)
{
    if (js.len)
        out_write(OUT_MACHINE, js.line, js.len);
    js.len = 0;
}

/* Every byte of a record except the final newline enters the checksum. */
static void emit(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        js.checksum = (js.checksum ^ (unsigned char)s[i]) * FNV_PRIME;
        if (js.len == sizeof js.line)
            flush_line();
        js.line[js.len++] = s[i];
    }
}

static void emit_str(const char *s) { emit(s, kstrlen(s)); }

static void emitf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emitf(const char *fmt, ...)
{
    char buf[48];
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    emit(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* A JSON string (RFC 8259 §7): text as UTF-8, as it is (§8.1), with the
 * quote, the backslash and the control characters escaped (DEL too, for a
 * reader's terminal); a byte that starts no well-formed UTF-8 sequence
 * (lib/utf8.h) becomes U+FFFD, one for each such byte, so the line is
 * always valid UTF-8. */
static void emit_quoted(const char *s, size_t n)
{
    emit("\"", 1);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = utf8_sequence(s + i, n - i);
        if (c == '"' || c == '\\') {
            char esc[2] = { '\\', (char)c };
            emit(esc, 2);
        } else if (c == '\n') {
            emit("\\n", 2);
        } else if (c == '\t') {
            emit("\\t", 2);
        } else if (c < 0x20 || c == 0x7f) {
            emitf("\\u%04x", c);
        } else if (len == 0) {
            emit_str(UTF8_REPLACEMENT);
            len = 1;
        } else {
            emit(s + i, len);
        }
        i += len;
    }
    emit("\"", 1);
}

/* Separator and key for the next value at the current depth. */
static void begin_value(const char *key)
{
    if (js.need_comma[js.depth])
        emit(",", 1);
    js.need_comma[js.depth] = true;
    if (key) {
        emit_quoted(key, kstrlen(key));
        emit(":", 1);
    }
}

static void open_nested(const char *key, char opener, char closer)
{
    if (js.depth == NEST_MAX) {
        js.ignored++;
        return;
    }
    begin_value(key);
    emit(&opener, 1);
    js.depth++;
    js.need_comma[js.depth] = false;
    js.closer[js.depth] = closer;
}

static void close_nested(void)
{
    if (js.ignored > 0)
        js.ignored--;
    else if (js.depth > 0)
        emit(&js.closer[js.depth--], 1);
}

/* FNV-1a 64 over the begin record's checksum so far and the first TSC read
 * (little-endian bytes): different runs differ by the TSC, and the same
 * TSC with another build or command line gives another id. */
static uint64_t run_id(uint32_t begin_checksum, bool have_tsc, uint64_t tsc)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned i = 0; i < 4; i++)
        h = (h ^ ((begin_checksum >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    for (unsigned i = 0; have_tsc && i < 8; i++)
        h = (h ^ ((tsc >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    return h;
}

static void stream_value(const struct record *r, const struct field *f, uint32_t checksum_before)
{
    if (f->kind == FIELD_CHECKSUM) {
        emitf("\"0x%llx\"", (unsigned long long)checksum_before);
        return;
    }
    (void)r;
    emitf("\"0x%016llx\"", (unsigned long long)js.run);
}

static void value(const struct record *r, const struct field *f, uint32_t checksum_before)
{
    char buf[48];
    int n;
    switch (f->kind) {
    case FIELD_U64: emitf("%llu", (unsigned long long)f->v.u); break;
    case FIELD_I64: emitf("%lld", (long long)f->v.i); break;
    case FIELD_HEX: emitf("\"0x%llx\"", (unsigned long long)f->v.u); break;
    case FIELD_FIXED:
        n = kfixed(buf, sizeof buf, f->v.i, f->decimals);
        emit(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        break;
    case FIELD_STR: emit_quoted(f->v.s, f->len); break;
    case FIELD_BOOL: emit_str(f->v.b ? "true" : "false"); break;
    case FIELD_U64_LIST:
        emit("[", 1);
        for (uint32_t k = 0; k < f->len; k++)
            emitf(k ? ",%llu" : "%llu", (unsigned long long)f->v.list[k]);
        emit("]", 1);
        break;
    case FIELD_RUN_ID:
    case FIELD_CHECKSUM: stream_value(r, f, checksum_before); break;
    default: emit_str("null"); break;
    }
}

static void json_record(const struct record *r)
{
    uint32_t checksum_before = js.checksum;
    js.depth = 0;
    js.ignored = 0;
    js.need_comma[0] = false;
    emit("{", 1);
    begin_value("type");
    emit_quoted(r->type, kstrlen(r->type));
    for (unsigned i = 0; i < r->n; i++) {
        const struct field *f = &r->field[i];
        if (f->kind == FIELD_OBJ_OPEN || f->kind == FIELD_ARR_OPEN)
            open_nested(f->key, f->kind == FIELD_OBJ_OPEN ? '{' : '[',
                        f->kind == FIELD_OBJ_OPEN ? '}' : ']');
        else if (f->kind == FIELD_OBJ_CLOSE || f->kind == FIELD_ARR_CLOSE)
            close_nested();
        else {
            /* The begin record makes the run id from its own bytes before
             * the "run" key; later records repeat it. */
            if (f->kind == FIELD_RUN_ID && record_is(r, "begin"))
                js.run = run_id(js.checksum, f->decimals != 0, f->v.u);
            begin_value(f->key);
            value(r, f, checksum_before);
        }
    }
    while (js.depth > 0) /* close what was left open, keeping the line valid JSON */
        emit(&js.closer[js.depth--], 1);
    emit("}", 1);
    if (js.len == sizeof js.line)
        flush_line();
    js.line[js.len++] = '\n';
    flush_line();
}

const struct format format_json = {
    .name = "json",
    .by_default = true,
    .record = json_record,
    .reset = json_reset,
};
