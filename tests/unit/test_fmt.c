/* kernel/fmt.c against what C's printf would print (exact strings). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "lib/fmt.h"
#include "platform/out.h"
#include "record/log.h"

#define EXPECT_FMT(expected, ...)                                                  \
    do {                                                                           \
        char buf_[128];                                                            \
        int n_ = ksnprintf(buf_, sizeof buf_, __VA_ARGS__);                        \
        assert_string_equal(buf_, expected);                                       \
        assert_int_equal(n_, (int)strlen(expected));                               \
    } while (0)

static void integers(void **state)
{
    (void)state;
    EXPECT_FMT("0", "%d", 0);
    EXPECT_FMT("-42", "%d", -42);
    EXPECT_FMT("-2147483648", "%d", INT32_MIN);
    EXPECT_FMT("4294967295", "%u", UINT32_MAX);
    EXPECT_FMT("ff FF 0xff 377", "%x %X %#x %o", 255, 255, 255, 255);
    EXPECT_FMT("[   7] [7   ] [0007] [+7] [ 7]", "[%4d] [%-4d] [%04d] [%+d] [% d]", 7, 7, 7, 7, 7);
    EXPECT_FMT("-007", "%04d", -7);
    EXPECT_FMT("00042", "%.5u", 42u);
    EXPECT_FMT("", "%.0d", 0);
    EXPECT_FMT("[  ab]", "[%*x]", 4, 0xab);
}

static void sixty_four_bit(void **state)
{
    (void)state;
    EXPECT_FMT("18446744073709551615", "%llu", (unsigned long long)UINT64_MAX);
    EXPECT_FMT("-9223372036854775808", "%lld", (long long)INT64_MIN);
    EXPECT_FMT("9223372036854775807", "%lld", (long long)INT64_MAX);
    EXPECT_FMT("ffffffffffffffff", "%llx", (unsigned long long)UINT64_MAX);
    EXPECT_FMT("0000000100000000", "%016llx", 0x100000000ull);
    EXPECT_FMT("12345678901234", "%llu", 12345678901234ull);
    EXPECT_FMT("1000000000000000000", "%llu", 1000000000000000000ull);
    EXPECT_FMT("255 65535", "%hhu %hu", 0x1ff, 0x1ffff);
    EXPECT_FMT("123", "%zu", (size_t)123);
}

static void strings_and_chars(void **state)
{
    (void)state;
    EXPECT_FMT("abc", "%s", "abc");
    const char *volatile null_string = NULL; /* hidden from the format checker */
    EXPECT_FMT("(null)", "%s", null_string);
    EXPECT_FMT("[  ab] [ab  ] [a]", "[%4s] [%-4s] [%.1s]", "ab", "ab", "abc");
    EXPECT_FMT("x [ y]", "%c [%2c]", 'x', 'y');
    EXPECT_FMT("100%", "100%%");
}

/* Unknown conversions are shown, not guessed (the format string is built at
 * run time so the compiler's format check does not reject it). */
static void unknown_conversion(void **state)
{
    (void)state;
    char fmt[4] = { '%', 'q', 0, 0 };
    char buf[8];
    ksnprintf(buf, sizeof buf, fmt);
    assert_string_equal(buf, "%q");
    fmt[1] = 0;
    ksnprintf(buf, sizeof buf, fmt);
    assert_string_equal(buf, "");
}

static void truncation(void **state)
{
    (void)state;
    char buf[6];
    int n = ksnprintf(buf, sizeof buf, "%s", "0123456789");
    assert_int_equal(n, 10);
    assert_string_equal(buf, "01234");
    assert_int_equal(ksnprintf(NULL, 0, "%d", 12345), 5);
}

static void fixed_point(void **state)
{
    (void)state;
    char buf[32];
    assert_int_equal(kfixed(buf, sizeof buf, 305, 2), 4);
    assert_string_equal(buf, "3.05");
    kfixed(buf, sizeof buf, -7, 2);
    assert_string_equal(buf, "-0.07");
    kfixed(buf, sizeof buf, 42, 0);
    assert_string_equal(buf, "42");
    kfixed(buf, sizeof buf, -1234567, 3);
    assert_string_equal(buf, "-1234.567");
    kfixed(buf, sizeof buf, INT64_MIN, 2);
    assert_string_equal(buf, "-92233720368547758.08");
}

static void stream_to_channel(void **state)
{
    (void)state;
    capture_reset();
    char big[600];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    log_text("start %s end %d\n", big, 9);
    const char *h = capture_human();
    assert_int_equal(strlen(h), 6 + 599 + 7);
    assert_memory_equal(h, "start z", 7);
    assert_string_equal(h + 6 + 599, " end 9\n");
    assert_string_equal(capture_machine(), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers),
        cmocka_unit_test(sixty_four_bit),
        cmocka_unit_test(strings_and_chars),
        cmocka_unit_test(unknown_conversion),
        cmocka_unit_test(truncation),
        cmocka_unit_test(fixed_point),
        cmocka_unit_test(stream_to_channel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
