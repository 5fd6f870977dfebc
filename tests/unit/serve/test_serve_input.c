/* The serial session's input (kernel/serve/serve_input.c) on a scripted
 * platform: which reads come back, and when the platform's idle wait is
 * used. Only the wait for a request line, which has no bound, may idle:
 * a frame's and a drain's ends are counted in empty polls, so an idle wait
 * there would stretch their time bounds. Asserted exactly: the line or
 * bytes returned and the number of waits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "platform/platform.h"
#include "serve/serve_input.h"

/* The script: a byte, -1 (nothing within a poll) or -2 (closed); after its
 * end the input is closed. */
static const int *script;
static size_t script_len, script_at;
static unsigned waits;

static int scripted_read(void)
{
    return script_at < script_len ? script[script_at++] : -2;
}

static void counted_wait(void) { waits++; }

static struct platform scripted(const int *bytes, size_t n, bool can_wait)
{
    struct platform p;
    memset(&p, 0, sizeof p);
    p.read_byte = scripted_read;
    p.wait_input = can_wait ? counted_wait : NULL;
    script = bytes;
    script_len = n;
    script_at = 0;
    waits = 0;
    return p;
}

static void a_line_after_silence_waits_once_per_empty_poll(void **state)
{
    (void)state;
    static const int in[] = { -1, -1, -1, 'r', 'u', 'n', -1, '\r', '\n' };
    struct platform p = scripted(in, sizeof in / sizeof in[0], true);
    char line[16];
    assert_int_equal(serve_read_line(&p, line, sizeof line), 3);
    assert_string_equal(line, "run");
    assert_int_equal(waits, 4);        /* three before the line, one inside it */
    assert_int_equal(script_at, sizeof in / sizeof in[0]);
}

static void without_a_wait_the_polling_is_the_wait(void **state)
{
    (void)state;
    static const int in[] = { -1, -1, 'e', 'n', 'd', '\n' };
    struct platform p = scripted(in, sizeof in / sizeof in[0], false);
    char line[16];
    assert_int_equal(serve_read_line(&p, line, sizeof line), 3);
    assert_string_equal(line, "end");
    assert_int_equal(waits, 0);
}

static void a_closed_input_ends_the_line_without_waiting(void **state)
{
    (void)state;
    static const int in[] = { 'x', -2 };
    struct platform p = scripted(in, sizeof in / sizeof in[0], true);
    char line[16];
    assert_int_equal(serve_read_line(&p, line, sizeof line), SERVE_LINE_CLOSED);
    assert_int_equal(waits, 0);
}

static void frames_and_drains_count_polls_and_never_wait(void **state)
{
    (void)state;
    static const int in[] = { 1, -1, 2, -1, -1, 3 };
    struct platform p = scripted(in, sizeof in / sizeof in[0], true);
    uint8_t buf[3];
    assert_int_equal(serve_read_frame(&p, buf, sizeof buf), 3);
    assert_memory_equal(buf, ((uint8_t[]){ 1, 2, 3 }), 3);
    static const int more[] = { 7, -1, 8, -1, -1, -1 };
    p = scripted(more, sizeof more / sizeof more[0], true);
    serve_drain(&p, 3);
    assert_int_equal(script_at, sizeof more / sizeof more[0]); /* quiet for 3 polls: done */
    assert_int_equal(waits, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_line_after_silence_waits_once_per_empty_poll),
        cmocka_unit_test(without_a_wait_the_polling_is_the_wait),
        cmocka_unit_test(a_closed_input_ends_the_line_without_waiting),
        cmocka_unit_test(frames_and_drains_count_polls_and_never_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
