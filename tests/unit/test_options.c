/* The command line: values, defaults on bad input, messages, help. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "lib/option.h"
#include "report/log.h"
#include "report/write.h"

OPTION_UINT(samples, "samples", 200, 1, 100000, "samples per result");
static const struct option_name ports[] = { { "com1", 0x3f8 }, { "none", 0 }, { NULL, 0 } };
OPTION_UINT_NAMED(port, "port", 0x3f8, 0x100, 0xfff8, ports, "a port");
static const struct option_name modes[] = { { "auto", 0 }, { "on", 1 }, { "off", 2 }, { NULL, 0 } };
OPTION_ENUM(mode, "mode", 0, modes, "a mode");
OPTION_BOOL(verbose, "verbose", false, "more output");
OPTION_STR(select, "select", 16, "*", "which benchmarks");

static int setup(void **state)
{
    (void)state;
    options_reset();
    log_reset();
    capture_reset();
    return 0;
}

static void good_values(void **state)
{
    (void)state;
    assert_int_equal(options_parse("/boot/cyclekit.elf samples=500 port=0x2f8 mode=off verbose select=p5/*"), 0);
    assert_int_equal(opt_samples, 500);
    assert_int_equal(opt_port, 0x2f8);
    assert_int_equal(opt_mode, 2);
    assert_true(opt_verbose);
    assert_string_equal(opt_select, "p5/*");
    options_parse("verbose=off port=none");
    assert_false(opt_verbose);
    assert_int_equal(opt_port, 0);
}

static void defaults_without_input(void **state)
{
    (void)state;
    assert_int_equal(options_parse(NULL), 0);
    assert_int_equal(options_parse("   \t "), 0);
    assert_int_equal(opt_samples, 200);
    assert_string_equal(opt_select, "*");
}

static void bad_values_get_default_and_message(void **state)
{
    (void)state;
    int problems = options_parse("samples=-3 port=0x10 mode=loud verbose=maybe "
                                 "select=much_too_long_a_value nosuch=1 samples=");
    assert_int_equal(problems, 7);
    assert_int_equal(opt_samples, 200);
    assert_int_equal(opt_port, 0x3f8);
    assert_int_equal(opt_mode, 0);
    assert_false(opt_verbose);
    assert_string_equal(opt_select, "*");
    options_report_problems();
    const char *h = capture_human();
    assert_non_null(strstr(h, "option 'samples': '-3' is not a number in 1..100000; using the default 200"));
    assert_non_null(strstr(h, "option 'port': '0x10' is not a number in 256..65528; using the default com1"));
    assert_non_null(strstr(h, "option 'mode': 'loud' is not one of its choices; using the default auto"));
    assert_non_null(strstr(h, "option 'verbose': 'maybe' is not on/off; using the default off"));
    assert_non_null(strstr(h, "option 'select': value too long; using the default '*'"));
    assert_non_null(strstr(h, "unknown option 'nosuch' ignored"));
    assert_int_equal(log_records(), 7);
    assert_non_null(strstr(capture_machine(), "{\"type\":\"note\",\"level\":\"warn\",\"topic\":\"cmdline\","));
}

static void bad_value_resets_earlier_good_one(void **state)
{
    (void)state;
    options_parse("samples=50 samples=0");
    assert_int_equal(opt_samples, 200);
}

static void overflow_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(options_parse("samples=99999999999999999999"), 1);
    assert_int_equal(opt_samples, 200);
    assert_int_equal(options_parse("port=0x"), 1);
}

static void too_many_problems_are_summarised(void **state)
{
    (void)state;
    options_parse("a b c d e f g h i j k");
    options_report_problems();
    assert_non_null(strstr(capture_human(), "3 more problems not shown"));
}

static void overlong_word(void **state)
{
    (void)state;
    char line[400];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    assert_int_equal(options_parse(line), 1);
}

static void help_lists_every_option(void **state)
{
    (void)state;
    write_help();
    const char *h = capture_human();
    assert_non_null(strstr(h, "samples          samples per result (default 200) [1..100000]"));
    assert_non_null(strstr(h, "mode             a mode (default auto) [auto|on|off]"));
    assert_non_null(strstr(h, "port             a port (default com1) [com1|none]"));
    assert_non_null(option_find("verbose"));
    assert_null(option_find("nosuch"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(good_values, setup),
        cmocka_unit_test_setup(defaults_without_input, setup),
        cmocka_unit_test_setup(bad_values_get_default_and_message, setup),
        cmocka_unit_test_setup(bad_value_resets_earlier_good_one, setup),
        cmocka_unit_test_setup(overflow_is_rejected, setup),
        cmocka_unit_test_setup(too_many_problems_are_summarised, setup),
        cmocka_unit_test_setup(overlong_word, setup),
        cmocka_unit_test_setup(help_lists_every_option, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
