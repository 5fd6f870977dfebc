/* The screen's table: which columns fit the width, and one line per result,
 * skip, fault or warning, never wider than the screen. The serial log's
 * result line (write_result.c) is longer and stays as it is. */
#include "cpu/uarch.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "screen_state.h"

#define NAME_MIN 15
#define NAME_MAX 32
/* Column widths, the separating blank included. */
#define W_TICKS 10    /* "  12345.67" */
#define W_CYCLES 11   /* "  12345.67c" */
#define W_EXPECTED 17 /* " Golden Cove 3.00" */
#define W_VERDICT 10  /* " untrusted" */
#define W_FLAGS 4     /* " use" */

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
    if (c->flags) cell(buf, &at, W_FLAGS, "!", false);
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

static void result_cells(const struct result *r, char *buf, unsigned *at)
{
    const struct screen_columns *c = &scr.col;
    char v[32];
    if (c->ticks) {
        kfixed(v, sizeof v, r->m->value_x100, 2);
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
        kfixed(ev, sizeof ev, r->expect ? r->expect->x100 : 0, 2);
        ksnprintf(v, sizeof v, "%s %s", r->expect ? uarch_name(r->expect->uarch) : "-", r->expect ? ev : "");
        cell(buf, at, W_EXPECTED, v, false);
    }
    if (c->verdict)
        cell(buf, at, W_VERDICT, r->expect ? short_verdict(r->verdict) : "-", false);
    if (c->flags) {
        ksnprintf(v, sizeof v, "%s%s%s", r->m->stable ? "" : "u", r->m->smis ? "s" : "",
                  r->m->methods_agree ? "" : "e");
        cell(buf, at, W_FLAGS, v, false);
    }
}

void screen_result(const struct result *r)
{
    screen_count_result(r);
    if (!screen_ready())
        return;
    char buf[SCREEN_LINE_MAX + 1], name[SCREEN_LINE_MAX + 1];
    screen_shorten(name, r->b->name, scr.col.name);
    unsigned at = (unsigned)ksnprintf(buf, sizeof buf, "%-*s", (int)scr.col.name, name);
    result_cells(r, buf, &at);
    screen_add_line(buf);
}

/* A line of a name and a sentence: the name shortened like in the table,
 * the sentence cut at the screen's edge with a '~' (the log has it all). */
static void name_and_text(const char *name, const char *text)
{
    char buf[SCREEN_LINE_MAX * 2], fit[SCREEN_LINE_MAX + 1];
    screen_shorten(fit, name, scr.col.name);
    unsigned n = (unsigned)ksnprintf(buf, sizeof buf, "%-*s %s", (int)scr.col.name, fit, text);
    if (n > scr.width) {
        buf[scr.width - 1] = '~';
        buf[scr.width] = '\0';
    }
    screen_add_line(buf);
}

void screen_skip(const char *name, const char *reason)
{
    char text[SCREEN_LINE_MAX * 2];
    scr.skipped++;
    if (!screen_ready())
        return;
    ksnprintf(text, sizeof text, "skipped: %s", reason);
    name_and_text(name, text);
}

void screen_fault(const char *where, const char *what)
{
    char text[SCREEN_LINE_MAX * 2];
    scr.faulted++;
    if (!screen_ready())
        return;
    const char *name = kstrncmp(where, "benchmark ", 10) ? where : where + 10;
    ksnprintf(text, sizeof text, "FAULT %s", what);
    name_and_text(name, text);
}

void screen_note(const char *level, const char *topic, const char *text)
{
    char line[SCREEN_LINE_MAX * 2];
    if (!kstrcmp(level, "info"))
        return; /* warnings and errors only: the table stays a table */
    scr.notes++;
    if (!screen_ready())
        return;
    ksnprintf(line, sizeof line, "[%s] %s", level, text);
    name_and_text(topic, line);
}

static void duration(char *buf, unsigned size, uint64_t ms)
{
    uint32_t s = (uint32_t)(ms / 1000u);
    if (s >= 3600)
        ksnprintf(buf, size, "%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
    else
        ksnprintf(buf, size, "%u:%02u", s / 60, s % 60);
}

void screen_progress_end(bool have_elapsed, uint64_t elapsed_ms)
{
    if (have_elapsed)
        duration(scr.elapsed, sizeof scr.elapsed, elapsed_ms);
}

void screen_progress(unsigned i, unsigned n, const char *name, bool have_elapsed, uint64_t elapsed_ms,
                     bool have_eta, uint64_t eta_ms)
{
    if (!screen_ready())
        return;
    char group[16], e[16] = "?", t[16] = "?", fit[SCREEN_LINE_MAX + 1], text[SCREEN_LINE_MAX * 2];
    unsigned g = 0;
    while (name[g] && name[g] != '/' && g + 1 < sizeof group) {
        group[g] = name[g];
        g++;
    }
    group[g] = '\0';
    scr.n = n;
    if (have_elapsed)
        duration(e, sizeof e, elapsed_ms);
    kstrlcpy(scr.elapsed, have_elapsed ? e : "", sizeof scr.elapsed);
    if (have_eta)
        duration(t, sizeof t, eta_ms);
    unsigned at = (unsigned)ksnprintf(text, sizeof text, "benchmark %u of %u | group %s | elapsed %s | left %s%s | ",
                                      i, n, group, e, have_eta ? "~" : "", t);
    if (at + 8 < scr.width) {
        screen_shorten(fit, name, scr.width - at);
        kstrlcpy(text + at, fit, sizeof text - at);
    }
    kstrlcpy(scr.progress, text, sizeof scr.progress);
    screen_draw_all();
}
