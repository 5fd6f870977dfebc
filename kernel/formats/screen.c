/* The screen (kernel/report/screen/) for the records converted to fields:
 * result rows, notes, skips and faults become its lines, progress records
 * its progress line, the trust record the header's verdict. The other
 * header parts and the summary are still handed over by their writers. */
#include "lib/kstring.h"
#include "report/screen/screen.h"
#include "formats.h"

static void result(const struct record *r)
{
    struct screen_row row = {
        .name = format_str(r, "name", ""),
        .verdict = format_str(r, "verdict", ""),
        .stable = format_flag(r, "stable"),
        .methods_agree = format_flag(r, "methods_agree"),
        .marks = format_str(r, "marks", NULL),
    };
    if (!row.marks) /* an old record: from stable and trusted */
        row.marks = format_flag(r, "trusted") ? (row.stable ? "ok" : "S") : (row.stable ? "U" : "US");
    int64_t smis = 0;
    row.smi = format_number(r, 0, "smi", &smis) && smis;
    format_number(r, 0, "ticks", &row.ticks_x100);
    row.have_cycles = format_number(r, 0, "cycles", &row.cycles_x100);
    row.cycles_exact = format_cycles_exact(r);
    int expect = record_find(r, 0, "expect");
    if (expect >= 0 && r->field[expect].kind == FIELD_OBJ_OPEN) {
        int uarch = record_find(r, expect + 1, "uarch");
        row.uarch = uarch >= 0 && r->field[uarch].kind == FIELD_STR ? r->field[uarch].v.s : "";
        format_number(r, expect + 1, "cycles", &row.expect_x100);
    }
    screen_result(&row);
}

static void progress(const struct record *r)
{
    const struct field *i = record_get(r, "i"), *n = record_get(r, "n");
    int64_t elapsed = 0, eta = 0;
    bool have_elapsed = format_number(r, 0, "elapsed_ms", &elapsed);
    bool have_eta = format_number(r, 0, "eta_ms", &eta);
    screen_progress(i ? (unsigned)i->v.u : 0, n ? (unsigned)n->v.u : 0, format_str(r, "name", ""),
                    have_elapsed, (uint64_t)elapsed, have_eta, (uint64_t)eta);
}

/* A fault the CPU raised or the harness found; the watchdog's are the log's only. */
static void fault(const struct record *r)
{
    if (kstrcmp(format_str(r, "detected_by", ""), "watchdog") != 0)
        screen_fault(format_str(r, "where", ""), format_str(r, "name", ""));
}

static void screen_record(const struct record *r)
{
    if (record_is(r, "result"))
        result(r);
    else if (record_is(r, "note"))
        screen_note(format_str(r, "level", ""), format_str(r, "topic", ""), format_str(r, "text", ""));
    else if (record_is(r, "skip"))
        screen_skip(format_str(r, "name", ""), format_str(r, "reason", ""));
    else if (record_is(r, "progress"))
        progress(r);
    else if (record_is(r, "fault"))
        fault(r);
    else if (record_is(r, "trust"))
        screen_trust(format_flag(r, "trusted"), format_str(r, "why", ""));
}

const struct format format_screen = {
    .name = "screen",
    .by_default = true,
    .record = screen_record,
};
