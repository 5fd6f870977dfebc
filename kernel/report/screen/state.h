/* The screen layout's state, shared by its files: text.c (the state,
 * shortening), table.c (the table's columns and cells), draw.c (rows,
 * history, paging), summary.c (counts and the summary page), feed.c (what
 * the writers hand over). Each calls only those before it in this list.
 * Private to them. */
#ifndef CK_REPORT_SCREEN_STATE_H
#define CK_REPORT_SCREEN_STATE_H
#include <stdbool.h>
#include <stdint.h>
#include "report/screen/screen.h"

#define SCREEN_TOP_OFF 5      /* results furthest from their expectations */
#define SCREEN_SUMMARY_MAX 24 /* summary lines */

struct screen_far {           /* one result off its expectation */
    char name[48];
    int64_t cycles_x100, expect_x100;
    char uarch[24];           /* the expectation's microarchitecture */
    uint32_t permille;        /* |cycles - expected| / expected */
};

struct screen_columns {       /* chosen once for the width */
    unsigned name;            /* the name column's width */
    bool ticks, cycles, expected, verdict, flags;
};

struct screen_state {
    bool probed, on, ended, paging;
    unsigned cols, rows, width; /* width: cols, at most SCREEN_LINE_MAX */
    struct screen_columns col;
    char version[32], cpu[64], trust[16], trust_why[200], log_where[128];
    char progress[SCREEN_LINE_MAX + 1];
    char lines[SCREEN_HISTORY][SCREEN_LINE_MAX + 1];
    unsigned total;           /* lines ever added (the newest is total - 1) */
    char summary[SCREEN_SUMMARY_MAX][SCREEN_LINE_MAX + 1];
    unsigned nsummary;
    int page;                 /* while paging: the page shown */
    unsigned n;               /* benchmarks the run selected */
    char elapsed[16];         /* at the last progress line ("" without a clock) */
    unsigned ok, off, other, flagged, skipped, faulted, notes;
    struct screen_far far[SCREEN_TOP_OFF];
    unsigned nfar;
};

extern struct screen_state scr;

/* text.c */
/* dst gets src shortened to w characters in the middle ("p5/pai~_stall"). */
void screen_shorten(char *dst, const char *src, unsigned w);

/* draw.c */
bool screen_ready(void);                       /* probes the size once */
void screen_add_line(const char *text);        /* a table line, drawn at once */
void screen_draw_all(void);
/* Pages of table lines; the summary is the page after them. */
unsigned screen_history_pages(void);

/* table.c */
void screen_choose_columns(void);
void screen_table_heading(char *buf, unsigned size);
/* A result's cells after its name, appended to buf (SCREEN_LINE_MAX + 1) at *at. */
void screen_result_cells(const struct screen_row *r, char *buf, unsigned *at);

/* summary.c */
void screen_count_result(const struct screen_row *r);

#endif
