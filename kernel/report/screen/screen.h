/* The screen's own layout (the serial log keeps its readable lines as they
 * are): a header (version, CPU, trust verdict), a progress line (benchmark
 * i of N, group, elapsed, time left), the results as a table chosen for the
 * screen's width, a footer (where the log goes), and at the end a summary
 * page. Everything shown is kept, so the whole run can be paged through
 * afterwards. Drawn through platform->screen; without one (the hosted
 * runner, screen=off or all) every call here does nothing. The writers and
 * the screen format (formats/screen.c, from records) call it.
 * Files: see state.h. */
#ifndef CK_REPORT_SCREEN_H
#define CK_REPORT_SCREEN_H
#include <stdbool.h>
#include <stdint.h>

/* The table's widest line is kept at most this long (wider screens show it
 * with blanks to the right). */
#define SCREEN_LINE_MAX 160
/* Lines of the run kept for paging; older ones are dropped (and counted). */
#define SCREEN_HISTORY 512

/* Header parts, as they become known. */
void screen_version(const char *version);
void screen_cpu(const char *name);
void screen_trust(bool trusted, const char *why);
void screen_log_where(const char *console); /* "serial 0x3f8 at 115200 baud 8N1, ..." */

/* have_*: false when the run has no clock (no TSC) / no estimate yet. */
void screen_progress(unsigned i, unsigned n, const char *name, bool have_elapsed, uint64_t elapsed_ms,
                     bool have_eta, uint64_t eta_ms);

/* After the last benchmark: the run's time, for the summary. */
void screen_progress_end(bool have_elapsed, uint64_t elapsed_ms);

/* One result row as the screen shows it: formats/screen.c fills it from
 * the result record. */
struct screen_row {
    const char *name;
    int64_t ticks_x100;
    bool have_cycles, cycles_exact;
    int64_t cycles_x100;
    const char *uarch;          /* the expectation's microarchitecture; NULL: none stated */
    int64_t expect_x100;
    const char *verdict;
    bool stable, smi, methods_agree;
    const char *marks;          /* the row's marks ("ok", "U", "SN" ...: docs/measuring.md) */
};

/* Table lines and what the summary counts. */
void screen_result(const struct screen_row *r);
void screen_skip(const char *name, const char *reason);
void screen_fault(const char *where, const char *what);
void screen_note(const char *level, const char *topic, const char *text);

/* The end: the summary page (counts, trust and why, the five results
 * furthest from their expectations, where the log went). */
void screen_summary(int status);

/* Paging after the run: pages before (negative) or after the one shown;
 * screen_page_home/end: the first page / the summary. */
bool screen_on(void);
void screen_page(int delta);
void screen_page_home(void);
void screen_page_end(void);

/* For tests: forget everything (a new screen, size asked again). */
void screen_reset(void);

#endif
