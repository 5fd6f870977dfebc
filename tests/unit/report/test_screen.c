/* The screen layout (kernel/report/screen/): columns chosen for the width,
 * names shortened in the middle, no row wider than the screen, the summary's
 * counts and the five results furthest off, and paging. The screen is a
 * grid of text here, filled through struct platform's screen. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "platform/platform.h"
#include "report/screen/screen.h"
#include "report/screen/state.h"

#define W_MAX 200
#define H_MAX 60
static unsigned grid_w, grid_h;
static char grid[H_MAX][W_MAX + 1];
static unsigned widest; /* the longest text ever handed to a row */

static bool grid_size(unsigned *cols, unsigned *rows)
{
    *cols = grid_w;
    *rows = grid_h;
    return true;
}

static void grid_row(unsigned y, const char *text, unsigned len)
{
    assert_true(y < grid_h);
    if (len > widest)
        widest = len;
    memset(grid[y], ' ', grid_w);
    memcpy(grid[y], text, len < grid_w ? len : grid_w);
    grid[y][grid_w] = '\0';
    for (unsigned x = grid_w; x > 0 && grid[y][x - 1] == ' '; x--)
        grid[y][x - 1] = '\0';
}

static const struct screen_ops grid_ops = { grid_size, grid_row };
static struct platform screen_platform;

static void use_screen(unsigned w, unsigned h)
{
    screen_platform = *platform;
    screen_platform.screen = &grid_ops;
    platform_install(&screen_platform);
    grid_w = w;
    grid_h = h;
    widest = 0;
    memset(grid, 0, sizeof grid);
    screen_reset();
    screen_version("v1.2");
    screen_log_where("serial 0x3f8 at 115200 baud 8N1, screen: VGA text; keys");
}

/* One result: name, ticks = cycles (exact), expectation, verdict, flags. */
struct fake {
    struct screen_row r;
};

static struct screen_row *fake(struct fake *f, const char *name, int64_t x100, int32_t expect_x100,
                               const char *verdict, bool stable)
{
    memset(f, 0, sizeof *f);
    f->r = (struct screen_row){ .name = name, .ticks_x100 = x100, .stable = stable, .methods_agree = true,
                                .have_cycles = true, .cycles_x100 = x100, .cycles_exact = true,
                                .uarch = expect_x100 ? "P5" : NULL,
                                .expect_x100 = expect_x100, .verdict = verdict,
                                .marks = stable ? "ok" : "S" };
    return &f->r;
}

static void shortened_in_the_middle(void **state)
{
    (void)state;
    char out[64];
    screen_shorten(out, "p5/lockstep/bank_conflict_store", 28);
    assert_string_equal(out, "p5/lockstep/b~conflict_store");
    screen_shorten(out, "lat/add", 28);
    assert_string_equal(out, "lat/add");
    screen_shorten(out, "abcdefgh", 5);
    assert_string_equal(out, "ab~gh");
}

static void columns_fit_every_width(void **state)
{
    (void)state;
    static const unsigned widths[] = { 40, 60, 80, 100, 132 };
    for (unsigned k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        use_screen(widths[k], 25);
        struct fake f;
        struct screen_row *r = fake(&f, "p5/lockstep/bank_conflict_store_very_long_name", 1234567, 300,
                                    "untrusted timing", false);
        f.r.smi = true;
        f.r.methods_agree = false;
        f.r.marks = "USNMD";
        screen_result(r);
        assert_true(widest <= widths[k]);
        assert_non_null(strstr(grid[2], "benchmark"));
        assert_non_null(strstr(grid[2], "verdict"));
        assert_non_null(strstr(grid[3], "untrusted"));
        assert_non_null(strstr(grid[3], "12345.67c"));
        assert_non_null(strstr(grid[3], "~")); /* the name, shortened */
        /* The marks, whole, on the result's own row wherever they fit. */
        if (widths[k] >= 80) {
            assert_non_null(strstr(grid[3], " USNMD"));
            assert_non_null(strstr(grid[3], "P5 3.00"));
            assert_non_null(strstr(grid[2], "ticks"));
        } else {
            assert_null(strstr(grid[2], "expected"));
        }
        assert_int_equal(grid[4][0], '\0'); /* nothing wrapped onto the next row */
    }
}

static void summary_counts_and_furthest_off(void **state)
{
    (void)state;
    use_screen(80, 25);
    static struct fake f[8];
    /* cycles vs expected 2.00: +50 %, -25 %, +100 %, +10 %, +200 %, 0 %, +5 % */
    static const int64_t v[] = { 300, 150, 400, 220, 600, 200, 210 };
    static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g" };
    for (unsigned i = 0; i < 7; i++)
        screen_result(fake(&f[i], names[i], v[i], 200, i % 2 ? "off" : "ok", i != 3));
    screen_result(fake(&f[7], "h", 100, 0, "no expectation", true));
    screen_skip("sys/rdtscp", "the CPU has no RDTSCP");
    screen_fault("benchmark lat/div", "#DE");
    screen_note("warn", "cmdline", "unknown option 'x' ignored");
    screen_note("info", "cpu", "not counted");
    screen_trust(false, "QEMU TCG emulates this CPU");
    screen_summary(2);
    assert_string_equal(grid[2], "Summary: run complete, status 2 (a benchmark faulted)");
    assert_string_equal(grid[4], "Results: 8 measured: ok 4, off 3, no verdict 1; flagged 1");
    assert_string_equal(grid[5], "Skipped 1, faulted 1; warnings and errors 1");
    assert_memory_equal(grid[6], "Marks: ok stable on a trusted timer; U untrusted timer", 54);
    assert_string_equal(grid[9], "Timings NOT trusted: QEMU TCG emulates this CPU");
    assert_string_equal(grid[11], "Furthest from their expectations (core cycles per body):");
    const char *order[] = { "e", "c", "a", "b", "d" };
    const char *pct[] = { "+200.0%", "+100.0%", "+50.0%", "-25.0%", "+10.0%" };
    for (unsigned k = 0; k < 5; k++) {
        assert_int_equal(grid[12 + k][2], order[k][0]);
        assert_non_null(strstr(grid[12 + k], pct[k]));
    }
    assert_string_equal(grid[18], "Full log (JSON records and readable lines): serial 0x3f8 at 115200 baud 8N1");
    assert_string_equal(grid[0], "cyclekit v1.2 | CPU not identified yet | timings NOT trusted");
}

static void pages_through_the_run(void **state)
{
    (void)state;
    use_screen(80, 10); /* 6 table rows per page */
    static struct fake f[15];
    static char names[15][8];
    for (unsigned i = 0; i < 15; i++) {
        snprintf(names[i], sizeof names[i], "n%02u", i);
        screen_result(fake(&f[i], names[i], 100, 100, "ok", true));
    }
    assert_memory_equal(grid[8], "n14", 3); /* live: the newest at the bottom */
    screen_summary(0);
    assert_string_equal(grid[2], "Summary: run complete, status 0 (nothing wrong)");
    screen_page_home();
    assert_memory_equal(grid[3], "n00", 3);
    assert_memory_equal(grid[8], "n05", 3);
    assert_non_null(strstr(grid[9], "page 1 of 4: PgUp PgDn Home End"));
    screen_page(1);
    screen_page(1);
    assert_memory_equal(grid[3], "n12", 3);
    assert_memory_equal(grid[5], "n14", 3);
    assert_string_equal(grid[6], "");
    screen_page(5); /* past the end: the summary */
    assert_non_null(strstr(grid[9], "page 4 of 4"));
    assert_string_equal(grid[2], "Summary: run complete, status 0 (nothing wrong)");
    screen_page(-9);
    assert_non_null(strstr(grid[9], "page 1 of 4"));
}

/* The header keeps the timing verdict whole at every width: a long CPU name
 * (an uncertain identity's prefix and a brand string) is what gets shortened,
 * and the row is never wider than the screen. */
static void header_keeps_the_verdict(void **state)
{
    (void)state;
    static const unsigned widths[] = { 40, 64, 80, 132 };
    for (unsigned i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        use_screen(widths[i], 25);
        screen_version("804a489-dirty");
        screen_cpu("(uarch uncertain) QEMU TCG CPU version 2.5+ with a long brand string");
        screen_trust(false, "QEMU TCG emulates this CPU");
        const char *end = "| timings NOT trusted";
        size_t n = strlen(grid[0]);
        assert_true(n >= strlen(end));
        assert_string_equal(grid[0] + n - strlen(end), end);
        assert_true(widest <= widths[i]);
        if (widths[i] >= 64) /* room for the CPU too: its name shortened in the middle */
            assert_true(strncmp(grid[0], "cyclekit 804a489-dirty | (uarch", 31) == 0);
        else
            assert_string_equal(grid[0], "cyclekit | timings NOT trusted");
    }
}

static void no_screen_no_drawing(void **state)
{
    (void)state;
    use_screen(80, 25);
    screen_platform.screen = NULL; /* the hosted runner */
    screen_reset();
    widest = 0;
    struct fake f;
    screen_result(fake(&f, "x", 100, 100, "ok", true));
    screen_summary(0);
    assert_false(screen_on());
    assert_int_equal(widest, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shortened_in_the_middle),
        cmocka_unit_test(columns_fit_every_width),
        cmocka_unit_test(summary_counts_and_furthest_off),
        cmocka_unit_test(pages_through_the_run),
        cmocka_unit_test(header_keeps_the_verdict),
        cmocka_unit_test(no_screen_no_drawing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
