/* The serial session (kernel/serve/, docs/serve-protocol.md): its records.
 * {"type":"serve","state":"ready","protocol":1,"input":..,"line_max":N,"frame_max":N}
 * {"type":"done","request":..,"status":S}        the end of every answer
 * {"type":"error","request":..,"reason":..}       a request that failed
 * (the readable lines of ready and error: formats/text.c) */
#include "record/log.h"
#include "write.h"

void write_serve_ready(const struct serve_info *s)
{
    rec_open("serve");
    rec_str("state", "ready");
    rec_u64("protocol", s->protocol);
    rec_str("input", s->input);
    rec_u64("line_max", s->line_max);
    rec_u64("frame_max", s->frame_max);
    rec_u64("watchdog_ms", s->watchdog_ms);
    rec_close();
}

void write_serve_done(const char *request, int status)
{
    rec_open("done");
    rec_str("request", request);
    rec_i64("status", status);
    rec_close();
}

void write_serve_error(const char *request, const char *reason)
{
    rec_open("error");
    rec_str("request", request);
    rec_str("reason", reason);
    rec_close();
}

void write_serve_end(const char *why)
{
    log_text("serve: session ended (%s)\n", why);
}
