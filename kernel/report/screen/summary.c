/* The summary page at the end of the run: what the table added up to, the
 * trust verdict and why, the five results furthest from their expectations,
 * and where the full log went. Counted as the writers pass results on, so
 * the page says exactly what the log's records say. */
#include <stdarg.h>
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "state.h"

static uint32_t permille_off(int64_t value, int64_t expect)
{
    int64_t d = value > expect ? value - expect : expect - value;
    if (expect <= 0)
        return 0;
    uint64_t p = (uint64_t)d * 1000u;
    /* 64-by-64 division is not in a freestanding i586 build: scale down first. */
    uint32_t e = (uint32_t)expect;
    while (p >> 32) {
        p >>= 1;
        e = e > 1 ? e >> 1 : 1;
    }
    return (uint32_t)p / e;
}

/* Keeps the SCREEN_TOP_OFF results furthest off, furthest first. */
static void consider_far(const struct screen_row *r)
{
    if (!r->uarch || !r->have_cycles)
        return;
    struct screen_far f = { .cycles_x100 = r->cycles_x100, .expect_x100 = r->expect_x100 };
    f.permille = permille_off(r->cycles_x100, r->expect_x100);
    kstrlcpy(f.name, r->name, sizeof f.name);
    kstrlcpy(f.uarch, r->uarch, sizeof f.uarch);
    unsigned at = scr.nfar;
    while (at > 0 && scr.far[at - 1].permille < f.permille)
        at--;
    if (at >= SCREEN_TOP_OFF)
        return;
    unsigned last = scr.nfar < SCREEN_TOP_OFF ? scr.nfar : SCREEN_TOP_OFF - 1;
    for (unsigned k = last; k > at; k--)
        scr.far[k] = scr.far[k - 1];
    scr.far[at] = f;
    if (scr.nfar < SCREEN_TOP_OFF)
        scr.nfar++;
}

void screen_count_result(const struct screen_row *r)
{
    if (!kstrcmp(r->verdict, "ok"))
        scr.ok++;
    else if (!kstrcmp(r->verdict, "off"))
        scr.off++;
    else
        scr.other++;
    if (r->marks && kstrcmp(r->marks, "ok") != 0)
        scr.flagged++;
    consider_far(r);
}

static void add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void add(const char *fmt, ...)
{
    if (scr.nsummary == SCREEN_SUMMARY_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(scr.summary[scr.nsummary++], scr.width + 1, fmt, ap);
    va_end(ap);
}

/* A sentence over as many lines as it takes (at most `max`), broken at blanks. */
static void add_wrapped(const char *lead, const char *text, unsigned max)
{
    unsigned w = scr.width - 2, len = (unsigned)kstrlen(text);
    char part[SCREEN_LINE_MAX + 1];
    for (unsigned line = 0; line < max && len; line++) {
        unsigned room = line ? w : w - (unsigned)kstrlen(lead), n = len;
        if (n > room) {
            n = room;
            while (n > room / 2 && text[n] != ' ')
                n--;
        }
        kmemcpy(part, text, n);
        part[n] = '\0';
        add(line ? "  %s" : "%s%s", line ? part : lead, line ? "" : part);
        text += n;
        len -= n;
        while (len && *text == ' ') {
            text++;
            len--;
        }
    }
}

static void far_lines(void)
{
    if (!scr.nfar) {
        add("No result has both an expectation and a cycle count to compare.");
        return;
    }
    add("Furthest from their expectations (core cycles per body):");
    for (unsigned k = 0; k < scr.nfar; k++) {
        const struct screen_far *f = &scr.far[k];
        char name[SCREEN_LINE_MAX + 1], c[24], e[24], ex[48];
        screen_shorten(name, f->name, scr.col.name);
        kfixed(c, sizeof c, f->cycles_x100, 2);
        kfixed(e, sizeof e, f->expect_x100, 2);
        ksnprintf(ex, sizeof ex, "%s %s", f->uarch, e);
        add("  %-*s %9s vs %-16s %s%u.%u%%", (int)scr.col.name, name, c, ex,
            f->cycles_x100 < f->expect_x100 ? "-" : "+", f->permille / 10, f->permille % 10);
    }
}

void screen_summary(int status)
{
    if (!screen_ready())
        return;
    scr.nsummary = 0;
    add("Summary: run complete, status %d (%s)", status, status == 0 ? "nothing wrong"
        : status == 1 ? "error notes reported" : status == 2 ? "a benchmark faulted" : "see the log");
    add("%s", "");
    add("Results: %u measured: ok %u, off %u, no verdict %u; flagged %u", scr.ok + scr.off + scr.other,
        scr.ok, scr.off, scr.other, scr.flagged);
    add("Skipped %u, faulted %u; warnings and errors %u", scr.skipped, scr.faulted, scr.notes);
    add_wrapped("Marks: ", "ok stable on a trusted timer; U untrusted timer, ? not judged, S unstable, "
                "N negative differences, M modes or non-linear, D disturbed", 2);
    add("%s", "");
    add_wrapped(scr.trust[0] && scr.trust[0] == 't' ? "Timings trusted: " : "Timings NOT trusted: ",
                scr.trust_why[0] ? scr.trust_why : "the trust check did not run", 3);
    add("%s", "");
    far_lines();
    add("%s", "");
    if (!kstrncmp(scr.log_where, "no serial", 9))
        add_wrapped("Full log: nowhere but this screen: ", scr.log_where, 2);
    else
        add_wrapped("Full log (JSON records and readable lines): ", scr.log_where, 2);
    scr.ended = true;
    scr.page = (int)screen_history_pages();
    ksnprintf(scr.progress, sizeof scr.progress, "run complete: %u benchmarks%s%s", scr.n,
              scr.elapsed[0] ? " in " : "", scr.elapsed);
    screen_draw_all();
}
