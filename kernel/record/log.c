/* The log's own records (begin, note, end) and its readable-only lines.
 * The begin and end records carry stream fields (the run id, the checksum)
 * that the JSON format fills in: they describe its lines. */
#include <stdarg.h>
#include "lib/build.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform/out.h"
#include "platform/platform.h"
#include "log.h"

static unsigned errors;
static struct log_trust tally;

void log_reset(void)
{
    errors = 0;
    tally = (struct log_trust){ 0 };
    record_reset();
}

void log_tally_timer(bool trusted)
{
    tally.timer_known = true;
    tally.timer_trusted = trusted;
}

void log_tally_result(bool flagged, bool untrusted)
{
    tally.results++;
    tally.flagged += flagged;
    tally.untrusted += untrusted;
}

const struct log_trust *log_trust(void) { return &tally; }

const char *log_trust_word(void)
{
    if (tally.untrusted || (tally.timer_known && !tally.timer_trusted))
        return "untrusted";
    return tally.flagged ? "flagged" : "trusted";
}

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
        errors++;
    rec_open("note");
    rec_str("level", level);
    rec_str("topic", topic);
    rec_str("text", text);
    rec_close();
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
    rec_stream_field("run", FIELD_RUN_ID, tsc, have_tsc);
    rec_close();
}

int log_end(int status)
{
    unsigned records = record_count();
    rec_open("end");
    rec_u64("records", records);
    rec_stream_field("checksum", FIELD_CHECKSUM, 0, false);
    rec_i64("status", status);
    rec_u64("errors", errors);
    rec_str("trust", log_trust_word());
    rec_u64("flagged", tally.flagged);
    rec_stream_field("run", FIELD_RUN_ID, 0, false);
    rec_close();
    return status;
}

unsigned log_records(void) { return record_count(); }
unsigned log_errors(void) { return errors; }
