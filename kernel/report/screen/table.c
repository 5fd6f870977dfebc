/* The screen's table: which columns fit the width, and one line per result,
 * skip, fault or warning, never wider than the screen. The serial log's
 * result line (write_result.c) is longer and stays as it is. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "state.h"

#define NAME_MIN 15
#define NAME_MAX 32
/* Column widths, the separating blank included. */
#define W_TICKS 10    /* "  12345.67" */
#define W_CYCLES 11   /* "  12345.67c" */
#define W_EXPECTED 17 /* " Golden Cove 3.00" */
#define W_VERDICT 10  /* " untrusted" */
#define W_FLAGS 6     /* " USNMD": the marks */

/* Columns join in the order of what a reader needs most, while the name
 * keeps NAME_MIN; the name takes what is left (up to NAME_MAX). */
void screen_choose_columns(void)
{
    struct screen_columns *c = &scr.col;
    unsigned used = NAME_MIN;
    *c = (struct screen_columns){ 0 };
    if (used + W_VERDICT <= scr.width) { c->verdict = true; used += W_VERDICT; }
    if (used + W_CYCLES <= scr.width) { c->cycles = true; used += W_CYCLES; }
    if (used + W_FLAGS <= scr.width) { c->flags = true; used += W_FLAGS; }
    if (used + W_TICKS <= scr.width) { c->ticks = true; used += W_TICKS; }
    if (used + W_EXPECTED <= scr.width) { c->expected = true; used += W_EXPECTED; }
    c->name = NAME_MIN + (scr.width - used);
    if (c->name > NAME_MAX)
        c->name = NAME_MAX;
}

/* Appends one cell to buf at *at: width w (separator included), right- or
 * left-aligned; a cell longer than its column is shortened in the middle. */
static void cell(char *buf, unsigned *at, unsigned w, const char *text, bool right)
{
    char fit[SCREEN_LINE_MAX + 1];
    screen_shorten(fit, text, w - 1);
    *at += (unsigned)ksnprintf(buf + *at, SCREEN_LINE_MAX + 1 - *at, right ? " %*s" : " %-*s", (int)(w - 1), fit);
}

void screen_table_heading(char *buf, unsigned size)
{
    const struct screen_columns *c = &scr.col;
    unsigned at = (unsigned)ksnprintf(buf, size, "%-*s", (int)c->name, "benchmark");
    if (c->ticks) cell(buf, &at, W_TICKS, "ticks", true);
    if (c->cycles) cell(buf, &at, W_CYCLES, "cycles", true);
    if (c->expected) cell(buf, &at, W_EXPECTED, "expected", false);
    if (c->verdict) cell(buf, &at, W_VERDICT, "verdict", false);
    if (c->flags) cell(buf, &at, W_FLAGS, "marks", false);
}

/* The verdict in one word ("no expectation" is "-"). */
static const char *short_verdict(const char *v)
{
    if (!kstrcmp(v, "ok") || !kstrcmp(v, "off"))
        return v;
    if (!kstrcmp(v, "untrusted timing"))
        return "untrusted";
    if (!kstrcmp(v, "no cycle unit"))
        return "no unit";
    return "-";
}

void screen_result_cells(const struct screen_row *r, char *buf, unsigned *at)
{
    const struct screen_columns *c = &scr.col;
    char v[32];
    if (c->ticks) {
        kfixed(v, sizeof v, r->ticks_x100, 2);
        cell(buf, at, W_TICKS, v, true);
    }
    if (c->cycles) {
        int n = r->have_cycles ? kfixed(v, sizeof v, r->cycles_x100, 2) : ksnprintf(v, sizeof v, "-");
        if (r->have_cycles && n > 0 && (unsigned)n + 1 < sizeof v)
            kstrlcpy(v + n, r->cycles_exact ? "c" : "~", sizeof v - (unsigned)n);
        cell(buf, at, W_CYCLES, v, true);
    }
    if (c->expected) {
        char ev[24];
        kfixed(ev, sizeof ev, r->uarch ? r->expect_x100 : 0, 2);
        ksnprintf(v, sizeof v, "%s %s", r->uarch ? r->uarch : "-", r->uarch ? ev : "");
        cell(buf, at, W_EXPECTED, v, false);
    }
    if (c->verdict)
        cell(buf, at, W_VERDICT, r->uarch ? short_verdict(r->verdict) : "-", false);
    if (c->flags)
        cell(buf, at, W_FLAGS, r->marks ? r->marks : "", false);
}
