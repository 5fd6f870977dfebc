/* The screen layout's rows: header (row 0), progress (row 1), the table's
 * heading (row 2), its lines (rows 3 .. rows-2; the newest at the bottom
 * while the run goes on), and a footer (the last row). Every table line is
 * kept (up to SCREEN_HISTORY), so after the run the table can be paged
 * through, with the summary as the last page. Lines are cut to the width
 * here, so nothing ever wraps, whatever a line says. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform/platform.h"
#include "state.h"

bool screen_ready(void)
{
    if (!scr.probed) {
        scr.probed = true;
        const struct screen_ops *ops = platform ? platform->screen : NULL;
        unsigned cols = 0, rows = 0;
        /* Too small for header, progress, heading, one line and the footer: off. */
        scr.on = ops && ops->size && ops->row && ops->size(&cols, &rows) && cols >= 40 && rows >= 6;
        scr.cols = cols;
        scr.rows = rows;
        scr.width = cols < SCREEN_LINE_MAX ? cols : SCREEN_LINE_MAX;
        if (scr.on)
            screen_choose_columns();
    }
    return scr.on;
}

bool screen_on(void) { return screen_ready(); }

static void row(unsigned y, const char *text)
{
    unsigned len = (unsigned)kstrlen(text);
    platform->screen->row(y, text, len < scr.width ? len : scr.width);
}

static unsigned body_rows(void) { return scr.rows - 4; }

static unsigned kept(void) { return scr.total < SCREEN_HISTORY ? scr.total : SCREEN_HISTORY; }

unsigned screen_history_pages(void)
{
    unsigned pages = (kept() + body_rows() - 1) / body_rows();
    return pages ? pages : 1;
}

static unsigned pages(void) { return screen_history_pages() + (scr.ended ? 1 : 0); }

static const char *line_at(unsigned k) /* k: 0 = the oldest line kept */
{
    return scr.lines[(scr.total - kept() + k) % SCREEN_HISTORY];
}

static void header(void)
{
    char name[SCREEN_LINE_MAX + 1], text[SCREEN_LINE_MAX * 2];
    const char *verdict = scr.trust[0] ? scr.trust : "not checked yet";
    /* "cyclekit " + " | " + " | timings ": 23 columns around the three parts;
     * the CPU's name is what gets shortened, never the verdict at the end. */
    unsigned fixed = (unsigned)(kstrlen(scr.version) + kstrlen(verdict) + 23);
    if (scr.width < fixed + 8) { /* a narrow screen: the verdict alone */
        ksnprintf(text, sizeof text, "cyclekit | timings %s", verdict);
        row(0, text);
        return;
    }
    unsigned room = scr.width - fixed;
    screen_shorten(name, scr.cpu[0] ? scr.cpu : "CPU not identified yet", room < 63 ? room : 63);
    ksnprintf(text, sizeof text, "cyclekit %s | %s | timings %s", scr.version, name, verdict);
    row(0, text);
}

static void footer(void)
{
    char text[SCREEN_LINE_MAX * 2];
    if (scr.paging)
        ksnprintf(text, sizeof text, "page %d of %u: PgUp PgDn Home End | log: %s", scr.page + 1, pages(),
                  scr.log_where);
    else if (scr.ended)
        ksnprintf(text, sizeof text, "log: %s", scr.log_where);
    else
        ksnprintf(text, sizeof text, "log: %s | marks: U untrusted ? unjudged S unstable N negative M modes D disturbed", scr.log_where);
    row(scr.rows - 1, text);
}

static void body(void)
{
    unsigned n = body_rows();
    if (scr.ended && (unsigned)scr.page == screen_history_pages()) { /* the summary page */
        for (unsigned y = 0; y < n + 1; y++)
            row(2 + y, y < scr.nsummary ? scr.summary[y] : "");
        return;
    }
    char heading[SCREEN_LINE_MAX * 2];
    screen_table_heading(heading, sizeof heading);
    row(2, heading);
    unsigned first;
    if (scr.ended)
        first = (unsigned)scr.page * n;
    else
        first = kept() > n ? kept() - n : 0;
    for (unsigned y = 0; y < n; y++)
        row(3 + y, first + y < kept() ? line_at(first + y) : "");
}

void screen_draw_all(void)
{
    if (!screen_ready())
        return;
    header();
    row(1, scr.progress);
    body();
    footer();
}

void screen_add_line(const char *text)
{
    if (!screen_ready())
        return;
    kstrlcpy(scr.lines[scr.total % SCREEN_HISTORY], text, scr.width + 1);
    scr.total++;
    body();
}

void screen_version(const char *version)
{
    kstrlcpy(scr.version, version, sizeof scr.version);
    screen_draw_all();
}

void screen_cpu(const char *name)
{
    kstrlcpy(scr.cpu, name, sizeof scr.cpu);
    if (screen_ready())
        header();
}

void screen_trust(bool trusted, const char *why)
{
    kstrlcpy(scr.trust, trusted ? "trusted" : "NOT trusted", sizeof scr.trust);
    kstrlcpy(scr.trust_why, why, sizeof scr.trust_why);
    if (screen_ready())
        header();
}

void screen_log_where(const char *console)
{
    kstrlcpy(scr.log_where, console, sizeof scr.log_where);
    for (char *c = scr.log_where; *c; c++) /* where the log goes: the serial part */
        if (!kstrncmp(c, ", screen", 8))
            *c = '\0';
    if (screen_ready())
        footer();
}

static void show_page(int page)
{
    int last = (int)pages() - 1;
    scr.page = page < 0 ? 0 : page > last ? last : page;
    scr.paging = true;
    body();
    footer();
}

void screen_page(int delta)
{
    if (screen_ready() && scr.ended)
        show_page(scr.page + delta);
}

void screen_page_home(void)
{
    if (screen_ready() && scr.ended)
        show_page(0);
}

void screen_page_end(void)
{
    if (screen_ready() && scr.ended)
        show_page((int)pages() - 1);
}
