/* JSON lines with a running count and FNV-1a checksum, so the reader of a
 * log can tell a complete run from one that was cut short. */
#include <stdarg.h>
#include "platform/platform.h"
#include "lib/build.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform/out.h"
#include "log.h"
#include "report/screen/screen.h"

#define FNV_OFFSET 0x811c9dc5u
#define FNV_PRIME 0x01000193u
#define NEST_MAX 8

static struct {
    uint32_t checksum;
    uint64_t run;            /* the run id: in the begin and the end record */
    unsigned records, errors;
    bool open;
    int depth;               /* 0: record level; >0 inside objects/arrays */
    bool need_comma[NEST_MAX + 1];
    char closer[NEST_MAX + 1]; /* '}' or ']' for each open level */
    int ignored;             /* levels opened beyond NEST_MAX: written nowhere */
    char line[16384];        /* one record is written whole, so text never splits it */
    size_t len;
} rep = { .checksum = FNV_OFFSET };

void log_reset(void)
{
    kmemset(&rep, 0, sizeof rep);
    rep.checksum = FNV_OFFSET;
}

static void flush_line(void)
{
    if (rep.len)
        out_write(OUT_MACHINE, rep.line, rep.len);
    rep.len = 0;
}

/* Every byte of a record except the final newline enters the checksum. */
static void emit(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rep.checksum = (rep.checksum ^ (unsigned char)s[i]) * FNV_PRIME;
        if (rep.len == sizeof rep.line)
            flush_line();
        rep.line[rep.len++] = s[i];
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

static void emit_quoted(const char *s, size_t n)
{
    emit("\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = { '\\', (char)c };
            emit(esc, 2);
        } else if (c == '\n') {
            emit("\\n", 2);
        } else if (c == '\t') {
            emit("\\t", 2);
        } else if (c < 0x20 || c >= 0x7f) {
            emitf("\\u%04x", c);
        } else {
            emit((const char *)&c, 1);
        }
    }
    emit("\"", 1);
}

/* Separator and key for the next value at the current depth. */
static void begin_value(const char *key)
{
    if (rep.need_comma[rep.depth])
        emit(",", 1);
    rep.need_comma[rep.depth] = true;
    if (key) {
        emit_quoted(key, kstrlen(key));
        emit(":", 1);
    }
}

void rec_open(const char *type)
{
    if (rep.open)
        rec_close(); /* a forgotten close must not merge two records */
    rep.open = true;
    rep.depth = 0;
    rep.need_comma[0] = false;
    emit("{", 1);
    rec_str("type", type);
}

void rec_close(void)
{
    if (!rep.open)
        return;
    rep.ignored = 0;
    while (rep.depth > 0) /* close what was left open, keeping the line valid JSON */
        emit(&rep.closer[rep.depth--], 1);
    emit("}", 1);
    if (rep.len == sizeof rep.line)
        flush_line();
    rep.line[rep.len++] = '\n';
    flush_line();
    rep.open = false;
    rep.records++;
}

void rec_str(const char *key, const char *value)
{
    rec_strn(key, value ? value : "", value ? (unsigned)kstrlen(value) : 0);
}

void rec_strn(const char *key, const char *value, unsigned len)
{
    begin_value(key);
    emit_quoted(value, kstrnlen(value, len));
}

void rec_u64(const char *key, uint64_t value)
{
    begin_value(key);
    emitf("%llu", (unsigned long long)value);
}

void rec_i64(const char *key, int64_t value)
{
    begin_value(key);
    emitf("%lld", (long long)value);
}

void rec_hex(const char *key, uint64_t value)
{
    begin_value(key);
    emitf("\"0x%llx\"", (unsigned long long)value);
}

void rec_fixed(const char *key, int64_t scaled, unsigned decimals)
{
    char buf[48];
    begin_value(key);
    int n = kfixed(buf, sizeof buf, scaled, decimals);
    emit(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void rec_bool(const char *key, bool value)
{
    begin_value(key);
    emit_str(value ? "true" : "false");
}

void rec_null(const char *key)
{
    begin_value(key);
    emit_str("null");
}

static void open_nested(const char *key, char opener, char closer)
{
    if (rep.depth == NEST_MAX) {
        rep.ignored++;
        return;
    }
    begin_value(key);
    emit(&opener, 1);
    rep.depth++;
    rep.need_comma[rep.depth] = false;
    rep.closer[rep.depth] = closer;
}

static void close_nested(void)
{
    if (rep.ignored > 0)
        rep.ignored--;
    else if (rep.depth > 0)
        emit(&rep.closer[rep.depth--], 1);
}

void rec_obj_open(const char *key) { open_nested(key, '{', '}'); }
void rec_obj_close(void) { close_nested(); }
void rec_arr_open(const char *key) { open_nested(key, '[', ']'); }
void rec_arr_close(void) { close_nested(); }

static void emit_human(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    out_write(OUT_HUMAN, text, len);
}

void log_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kvprintf_to(emit_human, NULL, fmt, ap);
    va_end(ap);
}

void log_note(const char *level, const char *topic, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (kstrcmp(level, "error") == 0)
        rep.errors++;
    log_text("[%s] %s: %s\n", level, topic, text);
    rec_open("note");
    rec_str("level", level);
    rec_str("topic", topic);
    rec_str("text", text);
    rec_close();
    screen_note(level, topic, text);
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

static void rec_run(uint64_t run)
{
    begin_value("run");
    emitf("\"0x%016llx\"", (unsigned long long)run);
}

void log_begin(const char *platform_name, const char *cmdline, bool have_tsc, uint64_t tsc)
{
    rec_open("begin");
    rec_u64("schema", LOG_SCHEMA);
    rec_str("program", "cyclekit");
    rec_str("version", ck_build_version);
    rec_str("built", ck_build_date);
    rec_str("compiler", ck_build_compiler);
    rec_str("platform", platform_name);
    rec_str("cmdline", cmdline ? cmdline : "");
    rep.run = run_id(rep.checksum, have_tsc, tsc);
    rec_run(rep.run);
    rec_close();
}

int log_end(int status)
{
    uint32_t checksum = rep.checksum;
    unsigned records = rep.records;
    rec_open("end");
    rec_u64("records", records);
    rec_hex("checksum", checksum);
    rec_i64("status", status);
    rec_u64("errors", rep.errors);
    rec_run(rep.run);
    rec_close();
    return status;
}

unsigned log_records(void) { return rep.records; }
unsigned log_errors(void) { return rep.errors; }
