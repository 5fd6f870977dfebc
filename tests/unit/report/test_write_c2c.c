/* The core-to-core table and record (kernel/report/cores/write_c2c.c) for
 * more processors than one screen's width holds: the table comes in blocks
 * of ten columns, every line within 80 characters, every row in each block,
 * and the record carries the whole N x N matrix. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "capture.h"
#include "report/write.h"
#include "smp/c2c.h"

static struct c2c_matrix m;

static void fill(unsigned n)
{
    memset(&m, 0, sizeof m);
    m.variant = "rmw";
    m.n = n;
    m.hz = 1000000000ull;
    for (unsigned i = 0; i < n; i++) {
        m.apic_id[i] = 2 * i;
        for (unsigned j = 0; j < n; j++) {
            m.cell[i][j] = i == j ? C2C_EMPTY : C2C_MEASURED;
            m.min[i][j] = 100 + i;
            m.median[i][j] = 200 + 10 * i + j;
        }
    }
}

static unsigned count(const char *text, const char *needle)
{
    unsigned k = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        k++;
    return k;
}

static void test_twenty_three_processors_in_three_blocks(void **state)
{
    (void)state;
    fill(23);
    capture_reset();
    write_c2c(&m, true);
    const char *t = capture_human();
    assert_non_null(strstr(t, "  columns 1-10 of 23:\n"));
    assert_non_null(strstr(t, "  columns 11-20 of 23:\n"));
    assert_non_null(strstr(t, "  columns 21-23 of 23:\n"));
    /* Every row appears once per block; the last block's header names the last three. */
    assert_int_equal(count(t, "\n    44 "), 3);
    assert_non_null(strstr(t, "  apic     40     42     44\n"));
    /* Row 22 (APIC ID 44), columns 21-23: median 200 + 220 + j, the diagonal "-". */
    assert_non_null(strstr(t, "    44    440    441      -\n"));
    for (const char *line = t; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 80)
            fprintf(stderr, "too long: %.*s\n", (int)len, line);
        assert_true(len <= 80);
        line += len + (end != NULL);
    }
    const char *r = capture_machine();
    assert_non_null(strstr(r, "\"apic_ids\":[0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44]"));
    assert_int_equal(count(r, "\"empty\""), 23);
    assert_int_equal(count(r, "\"measured\""), 23 * 22);
}

static void test_ten_or_fewer_need_no_block_header(void **state)
{
    (void)state;
    fill(10);
    capture_reset();
    write_c2c(&m, false);
    assert_null(strstr(capture_human(), "columns"));
    assert_non_null(strstr(capture_human(), "  apic      0      2      4      6      8     10     12     14     16     18\n"));
    assert_non_null(strstr(capture_human(), "(timings untrusted here"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twenty_three_processors_in_three_blocks),
        cmocka_unit_test(test_ten_or_fewer_need_no_block_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
