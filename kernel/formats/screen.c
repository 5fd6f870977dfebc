/* The screen (kernel/report/screen/) for the records converted to fields:
 * notes and skips become its lines. Result rows and the header parts are
 * still drawn by their writers from the harness's structs. */
#include "report/screen/screen.h"
#include "formats.h"

static void screen_record(const struct record *r)
{
    if (record_is(r, "note"))
        screen_note(format_str(r, "level", ""), format_str(r, "topic", ""), format_str(r, "text", ""));
    else if (record_is(r, "skip"))
        screen_skip(format_str(r, "name", ""), format_str(r, "reason", ""));
}

const struct format format_screen = {
    .name = "screen",
    .by_default = true,
    .record = screen_record,
};
