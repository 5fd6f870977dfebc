/* The screen (kernel/report/screen/) for the records converted to fields:
 * result rows, notes and skips become its lines. The header parts, faults
 * and progress are still handed over by their writers. */
#include "report/screen/screen.h"
#include "formats.h"

static void result(const struct record *r)
{
    struct screen_row row = {
        .name = format_str(r, "name", ""),
        .verdict = format_str(r, "verdict", ""),
        .stable = format_flag(r, "stable"),
        .methods_agree = format_flag(r, "methods_agree"),
    };
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

static void screen_record(const struct record *r)
{
    if (record_is(r, "result"))
        result(r);
    else if (record_is(r, "note"))
        screen_note(format_str(r, "level", ""), format_str(r, "topic", ""), format_str(r, "text", ""));
    else if (record_is(r, "skip"))
        screen_skip(format_str(r, "name", ""), format_str(r, "reason", ""));
}

const struct format format_screen = {
    .name = "screen",
    .by_default = true,
    .record = screen_record,
};
