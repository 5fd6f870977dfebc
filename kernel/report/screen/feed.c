/* What the writers hand the screen: a table line per result, skip, fault
 * and warning (each counted for the summary), and the progress line. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "state.h"

void screen_result(const struct screen_row *r)
{
    screen_count_result(r);
    if (!screen_ready())
        return;
    char buf[SCREEN_LINE_MAX + 1], name[SCREEN_LINE_MAX + 1];
    screen_shorten(name, r->name, scr.col.name);
    unsigned at = (unsigned)ksnprintf(buf, sizeof buf, "%-*s", (int)scr.col.name, name);
    screen_result_cells(r, buf, &at);
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
