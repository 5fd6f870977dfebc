/* u64_divmod (the kernel's 64-bit division) against the host's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "lib/div64.h"
#include "lib/kstring.h"

static void check(uint64_t n, uint64_t d)
{
    uint64_t r = 0;
    uint64_t q = u64_divmod(n, d, &r);
    assert_true(q == n / d);
    assert_true(r == n % d);
}

static void known_cases(void **state)
{
    (void)state;
    check(0, 1);
    check(7, 7);
    check(100, 7);
    check(UINT64_MAX, 1);
    check(UINT64_MAX, 10);
    check(UINT64_MAX, UINT64_MAX);
    check(UINT64_MAX - 1, UINT64_MAX);
    check(1ull << 63, 3);
    check(0xFFFFFFFFull, 0x100000000ull);     /* 32-bit dividend, 64-bit divisor */
    check(0x8000000000000001ull, 0x8000000000000000ull); /* remainder reaches 2^63 */
    check(0xFFFFFFFFFFFFFFFFull, 0x8000000000000001ull);
    check(12345678901234567ull, 1000);
}

static void pseudo_random_cases(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t n = x;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t d = x >> (x & 63);
        if (d == 0)
            d = 1;
        check(n, d);
    }
}

static void divide_by_zero_never_traps(void **state)
{
    (void)state;
    uint64_t r = 0;
    assert_true(u64_divmod(42, 0, &r) == UINT64_MAX);
    assert_true(r == 42);
}

static void glob(void **state)
{
    (void)state;
    assert_true(kglob("p5/*", "p5/agi/stall"));
    assert_true(kglob("*", ""));
    assert_true(kglob("*/agi/*", "p5/agi/none"));
    assert_true(kglob("lat/?dd", "lat/add"));
    assert_false(kglob("p5/*", "sys/cpuid"));
    assert_false(kglob("lat/add", "lat/addx"));
    assert_true(kglob("a*b*c", "aXXbYYc"));
    assert_false(kglob("a*b*c", "aXXbYY"));
}

static void words(void **state)
{
    (void)state;
    char w[6];
    const char *p = kword(",,p5/*,, lat/add ,", ", ", w, sizeof w);
    assert_non_null(p);
    assert_string_equal(w, "p5/*");
    p = kword(p, ", ", w, sizeof w);
    assert_string_equal(w, "lat/a"); /* truncated to size - 1, the rest consumed */
    assert_string_equal(p, " ,");
    assert_null(kword(p, ", ", w, sizeof w));
    assert_null(kword("", ",", w, sizeof w));
}

static void strings(void **state)
{
    (void)state;
    char buf[4];
    assert_int_equal(kstrlcpy(buf, "abcdef", sizeof buf), 6);
    assert_string_equal(buf, "abc");
    assert_int_equal(kstrncmp("abc", "abd", 2), 0);
    assert_true(kstrcmp("abc", "abd") < 0);
    assert_int_equal(kstrnlen("abc", 2), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_cases),
        cmocka_unit_test(pseudo_random_cases),
        cmocka_unit_test(divide_by_zero_never_traps),
        cmocka_unit_test(glob),
        cmocka_unit_test(words),
        cmocka_unit_test(strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
