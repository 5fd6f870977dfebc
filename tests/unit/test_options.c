/* The command line: values, defaults on bad input, messages, help.
 *
 * Linked with the whole host library (see the Makefile), so the registry
 * holds every portable option of the kernel besides the five below, and
 * every_registered_option_explains_a_bad_value() walks all of them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "cpu/cpu.h"
#include "options/option.h"
#include "platform/guard.h"
#include "record/log.h"
#include "report/write.h"

/* One of each kind (keys unlike the kernel's own). */
static struct {
    uint32_t count, port, mode;
    bool verbose;
    char pick[16];
} t;
OPTION_UINT_AT(count, &t.count, "count", 200, 1, 100000, NULL, "samples per result");
static const struct option_name ports[] = { { "com1", 0x3f8 }, { "none", 0 }, { NULL, 0 } };
OPTION_UINT_AT(port, &t.port, "port", 0x3f8, 0x100, 0xfff8, ports, "a port");
static const struct option_name modes[] = { { "auto", 0 }, { "on", 1 }, { "off", 2 }, { NULL, 0 } };
OPTION_ENUM_AT(mode, &t.mode, "mode", 0, modes, "a mode");
OPTION_BOOL_AT(verbose, &t.verbose, "verbose", false, "more output");
OPTION_STR_AT(pick, t.pick, "select", "*", "which benchmarks");
OPTION_ELSEWHERE(farside, "farside", "only the other platform has it");

/* The whole library links the harness and the guard: support/host32.c stands in
 * for their 32-bit parts. */

extern const struct option __start_ck_options[] __attribute__((weak));
extern const struct option __stop_ck_options[] __attribute__((weak));

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
    assert_int_equal(options_parse("/boot/cyclekit.elf count=500 port=0x2f8 mode=off verbose select=p5/*"), 0);
    assert_int_equal(t.count, 500);
    assert_int_equal(t.port, 0x2f8);
    assert_int_equal(t.mode, 2);
    assert_true(t.verbose);
    assert_string_equal(t.pick, "p5/*");
    options_parse("verbose=off port=none");
    assert_false(t.verbose);
    assert_int_equal(t.port, 0);
}

static void defaults_without_input(void **state)
{
    (void)state;
    assert_int_equal(options_parse(NULL), 0);
    assert_int_equal(options_parse("   \t "), 0);
    assert_int_equal(t.count, 200);
    assert_string_equal(t.pick, "*");
}

/* Each kind's message, word for word: the option, the value, what was
 * expected, the default used. */
static void bad_values_get_default_and_message(void **state)
{
    (void)state;
    int problems = options_parse("count=-3 port=0x10 mode=loud verbose=maybe "
                                 "select=much_too_long_a_value nosuch=1 count= mode select");
    assert_int_equal(problems, 9);
    assert_int_equal(t.count, 200);
    assert_int_equal(t.port, 0x3f8);
    assert_int_equal(t.mode, 0);
    assert_false(t.verbose);
    assert_string_equal(t.pick, "*");
    options_report_problems(); /* 8 shown, 1 summarised */
    const char *h = capture_human();
    assert_non_null(strstr(h, "option 'count': '-3' is not a number in 1..100000; using the default 200"));
    assert_non_null(strstr(h, "option 'port': '0x10' is not a number in 256..65528 or one of com1|none; "
                              "using the default com1"));
    assert_non_null(strstr(h, "option 'mode': 'loud' is not one of auto|on|off; using the default auto"));
    assert_non_null(strstr(h, "option 'verbose': 'maybe' is not on/off; using the default off"));
    assert_non_null(strstr(h, "option 'select': 'much_too_long_a_value' is not text of at most 15 "
                              "characters; using the default '*'"));
    assert_non_null(strstr(h, "unknown option 'nosuch' ignored"));
    assert_non_null(strstr(h, "option 'count': '' is not a number in 1..100000; using the default 200"));
    assert_non_null(strstr(h, "option 'mode': no value given, expected one of auto|on|off; using the "
                              "default auto"));
    assert_non_null(strstr(h, "1 more problems not shown"));
    assert_int_equal(log_records(), 9);
    assert_non_null(strstr(capture_machine(), "{\"type\":\"note\",\"level\":\"warn\",\"topic\":\"cmdline\","));
}

static void bad_value_resets_earlier_good_one(void **state)
{
    (void)state;
    options_parse("count=50 count=0");
    assert_int_equal(t.count, 200);
}

static void overflow_is_rejected(void **state)
{
    (void)state;
    assert_int_equal(options_parse("count=99999999999999999999"), 1);
    assert_int_equal(t.count, 200);
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
    options_report_problems();
    assert_non_null(strstr(capture_human(), "a word of the command line is longer than 255 characters"));
}

/* key=<300 characters>: the option is named, its value quoted cut short. */
static void overlong_value_names_its_option(void **state)
{
    (void)state;
    char line[320] = "select=";
    memset(line + 7, 'y', 300);
    line[307] = '\0';
    options_parse("select=kept");
    assert_int_equal(options_parse(line), 1);
    assert_string_equal(t.pick, "*");
    options_report_problems();
    char expect[256];
    snprintf(expect, sizeof expect, "option 'select': '%.120s...' is not text of at most 15 characters; "
             "using the default '*'", line + 7);
    assert_non_null(strstr(capture_human(), expect));
}

static void help_lists_every_option(void **state)
{
    (void)state;
    write_help();
    const char *h = capture_human();
    assert_non_null(strstr(h, "count            samples per result (default 200) [1..100000]"));
    assert_non_null(strstr(h, "mode             a mode (default auto) [auto|on|off]"));
    assert_non_null(strstr(h, "port             a port (default com1) [com1|none]"));
    assert_non_null(strstr(h, "farside          (no meaning here: only the other platform has it)"));
    assert_non_null(option_find("verbose"));
    assert_null(option_find("nosuch"));
}

/* ---- every registered option ---- */

/* The default as the message must name it (computed here independently). */
static void default_text(const struct option *o, char *buf, size_t size)
{
    const char *name = NULL;
    for (const struct option_name *n = o->names; n && n->name && o->kind != OPTION_BOOL; n++)
        if (n->value == o->def && !name)
            name = n->name;
    switch (o->kind) {
    case OPTION_UINT: name ? snprintf(buf, size, "%s", name) : snprintf(buf, size, "%u", o->def); break;
    case OPTION_ENUM: snprintf(buf, size, "%s", name ? name : "?"); break;
    case OPTION_BOOL: snprintf(buf, size, "%s", o->def ? "on" : "off"); break;
    case OPTION_STR: snprintf(buf, size, "'%s'", o->str_def); break;
    case OPTION_ELSEWHERE: snprintf(buf, size, "-"); break;
    }
}

/* Parses one bad word for o, reports it, and checks the one message. */
static void check_bad(const struct option *o, const char *word, const char *value)
{
    options_reset();
    log_reset();
    capture_reset();
    assert_int_equal(options_parse(word), 1);
    options_report_problems();
    const char *h = capture_human();
    char want[400], def[64];
    default_text(o, def, sizeof def);
    snprintf(want, sizeof want, "option '%s': ", o->key);
    if (!strstr(h, want))
        fail_msg("%s: the message does not name the option: %s", word, h);
    snprintf(want, sizeof want, value ? "'%s'" : "no value given", value);
    if (!strstr(h, want))
        fail_msg("%s: the message does not quote the value: %s", word, h);
    snprintf(want, sizeof want, "; using the default %s\n", def);
    if (!strstr(h, want))
        fail_msg("%s: the message does not name the default (%s): %s", word, def, h);
    switch (o->kind) {
    case OPTION_UINT:
        snprintf(want, sizeof want, "a number in %u..%u", o->min, o->max);
        break;
    case OPTION_ENUM: snprintf(want, sizeof want, "one of "); break;
    case OPTION_BOOL: snprintf(want, sizeof want, "on/off"); break;
    case OPTION_STR: snprintf(want, sizeof want, "text of at most %u characters", o->max - 1); break;
    case OPTION_ELSEWHERE: fail_msg("%s: an option of the other platform has no bad value", word); break;
    }
    if (!strstr(h, want))
        fail_msg("%s: the message does not say what was expected (%s): %s", word, want, h);
    for (const struct option_name *n = o->names; n && n->name; n++) {
        snprintf(want, sizeof want, "%s%s", n == o->names ? "one of " : "|", n->name);
        if (!strstr(h, want))
            fail_msg("%s: the message does not list the choice %s: %s", word, n->name, h);
    }
    /* The option holds its default again. */
    const struct option *found = option_find(o->key);
    assert_ptr_equal(found, o);
    switch (o->kind) {
    case OPTION_UINT:
    case OPTION_ENUM: assert_int_equal(*(uint32_t *)o->value, o->def); break;
    case OPTION_BOOL: assert_int_equal(*(bool *)o->value, o->def != 0); break;
    case OPTION_STR: assert_string_equal((char *)o->value, o->str_def); break;
    case OPTION_ELSEWHERE: break;
    }
}

/* An option only the other platform has: any value, or none, is noted as
 * meaningless here and ignored; help lists it with the reason. */
static void check_elsewhere(const struct option *o, const char *word)
{
    options_reset();
    log_reset();
    capture_reset();
    assert_int_equal(options_parse(word), 1);
    options_report_problems();
    char want[300];
    snprintf(want, sizeof want, "option '%s' has no meaning here: %s; ignored\n", o->key, o->help);
    if (!strstr(capture_human(), want))
        fail_msg("%s: expected \"%s\" in: %s", word, want, capture_human());
}

static void every_registered_option_explains_a_bad_value(void **state)
{
    (void)state;
    unsigned n = 0, kinds[5] = { 0 };
    for (const struct option *o = __start_ck_options; o < __stop_ck_options; o++, n++) {
        char word[400], value[300];
        kinds[o->kind]++;
        switch (o->kind) {
        case OPTION_UINT:
            snprintf(word, sizeof word, "%s=12x", o->key);
            check_bad(o, word, "12x");
            if (o->max < UINT32_MAX) {
                snprintf(value, sizeof value, "%u", o->max + 1);
                snprintf(word, sizeof word, "%s=%s", o->key, value);
                check_bad(o, word, value);
            }
            check_bad(o, o->key, NULL);
            break;
        case OPTION_ENUM:
            snprintf(word, sizeof word, "%s=no-such-choice", o->key);
            check_bad(o, word, "no-such-choice");
            check_bad(o, o->key, NULL);
            break;
        case OPTION_BOOL:
            snprintf(word, sizeof word, "%s=maybe", o->key);
            check_bad(o, word, "maybe");
            break;
        case OPTION_STR:
            /* One character too many, when the word can hold it (a word
             * is at most 255 characters); always the missing value. */
            if (strlen(o->key) + 1 + o->max <= 255 && o->max <= 120) {
                memset(value, 'v', o->max);
                value[o->max] = '\0';
                snprintf(word, sizeof word, "%s=%s", o->key, value);
                check_bad(o, word, value);
            }
            check_bad(o, o->key, NULL);
            break;
        case OPTION_ELSEWHERE:
            snprintf(word, sizeof word, "%s=anything", o->key);
            check_elsewhere(o, word);
            check_elsewhere(o, o->key);
            break;
        }
    }
    print_message("%u options, %u uint, %u bool, %u enum, %u str, %u elsewhere\n", n, kinds[OPTION_UINT],
                  kinds[OPTION_BOOL], kinds[OPTION_ENUM], kinds[OPTION_STR], kinds[OPTION_ELSEWHERE]);
    /* The test's five and the kernel's portable options are all there. */
    assert_true(n >= 5 + 15);
    for (int k = 0; k < 5; k++)
        assert_true(kinds[k] > 0);
    assert_non_null(option_find("samples"));
    assert_non_null(option_find("bench"));
    assert_non_null(option_find("timer"));
}

/* A mistyped key gets the nearest option's name; a word far from every key
 * (and an option only the other platform has) gets none. */
static void unknown_word_names_the_nearest_option(void **state)
{
    (void)state;
    options_reset();
    capture_reset();
    assert_int_equal(options_parse("cont=5 verbos selekt=x zzzzzz=1 farsid"), 5);
    options_report_problems();
    const char *h = capture_human();
    assert_non_null(strstr(h, "unknown option 'cont' ignored (boot with 'help' for the list); did you mean "
                              "'count'?"));
    assert_non_null(strstr(h, "unknown option 'verbos' ignored (boot with 'help' for the list); did you "
                              "mean 'verbose'?"));
    assert_non_null(strstr(h, "unknown option 'selekt' ignored (boot with 'help' for the list); did you "
                              "mean 'select'?"));
    assert_non_null(strstr(h, "unknown option 'zzzzzz' ignored (boot with 'help' for the list)\n"));
    assert_non_null(strstr(h, "unknown option 'farsid' ignored (boot with 'help' for the list)\n"));
    assert_string_equal(option_nearest("mod"), "mode");
    assert_null(option_nearest("m"));
    assert_null(option_nearest("zzzzzz"));
    assert_int_equal(t.count, 200);
}

/* The hosted runner's wording: how to ask is its own command, an unknown
 * word says what the run used instead (the near option's value once every
 * word is parsed), and the user's mistakes are kept for its stderr and exit
 * status; an option of the other platform is a note, not a mistake. */
static void hosted_runner_says_what_it_used(void **state)
{
    (void)state;
    options_reset();
    capture_reset();
    options_set_runner("cyclekit-hosted64");
    assert_int_equal(options_parse("cont=5 count=7 zzzzzz=1 farside verbose=perhaps"), 4);
    options_report_problems();
    options_set_runner(NULL);
    const char *h = capture_human();
    const char *cont = "unknown option 'cont' ignored (`cyclekit-hosted64 help` for the list); did you mean "
                       "'count'? the run used count=7";
    const char *far = "unknown option 'zzzzzz' ignored (`cyclekit-hosted64 help` for the list); the run went on "
                      "without it";
    const char *bad = "option 'verbose': 'perhaps' is not on/off; using the default off";
    assert_non_null(strstr(h, cont));
    assert_non_null(strstr(h, far));
    assert_null(strstr(h, "boot with"));
    assert_int_equal(options_mistakes(), 3);
    assert_string_equal(options_mistake(0), cont);
    assert_string_equal(options_mistake(1), far);
    assert_string_equal(options_mistake(2), bad);
    assert_null(options_mistake(3));
    /* A mistake the run finds later (sweep=) joins them; a reset forgets them. */
    options_note_mistake("option 'sweep': no benchmark named '%s'", "x");
    assert_int_equal(options_mistakes(), 4);
    assert_string_equal(options_mistake(3), "option 'sweep': no benchmark named 'x'");
    options_reset();
    assert_int_equal(options_mistakes(), 0);
    assert_null(options_mistake(0));
}

/* Bare metal asks for a boot; the hosted runner for its own argument. */
static void asking_for_a_list(void **state)
{
    (void)state;
    char buf[64];
    options_ask("list", buf, sizeof buf);
    assert_string_equal(buf, "boot with 'list'");
    options_set_runner("cyclekit-hosted");
    options_ask("list", buf, sizeof buf);
    options_set_runner(NULL);
    assert_string_equal(buf, "`cyclekit-hosted list`");
}

/* Benchmark names are longer than keys: the distance holds past 32
 * characters, and a name is near only within 2 edits and under the word's length. */
static void near_names(void **state)
{
    (void)state;
    assert_int_equal(option_edit_distance("lat64/imull", "lat64/imul"), 1);
    assert_int_equal(option_edit_distance("lat64/imull", "lat64/mulx"), 2);
    assert_int_equal(option_edit_distance("simd64/vfmadd231ps_zmm/tputt", "simd64/vfmadd231ps_zmm/tput"), 1);
    assert_int_equal(option_edit_distance("mem64/chase/4xLLC/aaaaaaaaaaaaaaaaaaaaaab",
                                          "mem64/chase/4xLLC/aaaaaaaaaaaaaaaaaaaaaaa"), 1);
    assert_true(option_near("lat64/imull", "lat64/imul"));
    assert_false(option_near("lat/nosuch", "lat/push"));
    assert_false(option_near("ab", "cd"));
    assert_false(option_near("x", "on"));
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
        cmocka_unit_test_setup(overlong_value_names_its_option, setup),
        cmocka_unit_test_setup(help_lists_every_option, setup),
        cmocka_unit_test_setup(every_registered_option_explains_a_bad_value, setup),
        cmocka_unit_test_setup(unknown_word_names_the_nearest_option, setup),
        cmocka_unit_test_setup(hosted_runner_says_what_it_used, setup),
        cmocka_unit_test_setup(asking_for_a_list, setup),
        cmocka_unit_test_setup(near_names, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
