/* sibling=BODY[,ANTAGONIST] (kernel/smp/sibling_choice.c): which kernels
 * each text chooses, and for bad text the exact reason and the default. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "smp/sibling_choice.h"

static struct sibling_choice c;
static char why[64];

static void chosen(const char *text, unsigned body, unsigned n, const uint8_t *anta)
{
    assert_true(sibling_choice_parse(text, &c, why, sizeof why));
    assert_string_equal(why, "");
    assert_int_equal(c.body, body);
    assert_int_equal(c.n, n);
    assert_memory_equal(c.antagonist, anta, n);
}

static void refused(const char *text, const char *reason)
{
    assert_false(sibling_choice_parse(text, &c, why, sizeof why));
    assert_string_equal(why, reason);
    assert_int_equal(c.body, SIBK_ADD);          /* the default, add,add */
    assert_int_equal(c.n, 1);
    assert_int_equal(c.antagonist[0], SIBK_ADD);
}

static void test_body_and_antagonist(void **state)
{
    (void)state;
    chosen(SIBLING_DEFAULT, SIBK_ADD, 1, (const uint8_t[]){ SIBK_ADD });
    chosen("imul,load", SIBK_IMUL, 1, (const uint8_t[]){ SIBK_LOAD });
    chosen("store", SIBK_STORE, 1, (const uint8_t[]){ SIBK_STORE });   /* omitted: the same */
    chosen("sse2,none", SIBK_SSE2, 1, (const uint8_t[]){ SIBK_NONE });
    chosen("pause,x87", SIBK_PAUSE, 1, (const uint8_t[]){ SIBK_X87 });
}

static void test_all_is_every_antagonist_in_menu_order(void **state)
{
    (void)state;
    const uint8_t every[] = { SIBK_ADD, SIBK_IMUL, SIBK_LOAD, SIBK_STORE, SIBK_X87, SIBK_SSE2, SIBK_PAUSE, SIBK_NONE };
    chosen("all", SIBK_ADD, SIBK_COUNT, every);
    chosen("x87,all", SIBK_X87, SIBK_COUNT, every);
}

static void test_bad_text_keeps_the_default(void **state)
{
    (void)state;
    refused("bogus", "'bogus' is not a kernel");
    refused("add,bogus", "'bogus' is not a kernel");
    refused("adds", "'adds' is not a kernel");      /* a prefix is not a name */
    refused("ad", "'ad' is not a kernel");
    refused("all,add", "'all' is not a kernel");
    refused("none", "'none' is an antagonist only: the body must run");
    refused("none,add", "'none' is an antagonist only: the body must run");
    refused("", "an empty name");
    refused("add,", "an empty name");
    refused(",add", "an empty name");
    refused("add,imul,load", "more than BODY,ANTAGONIST");
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(sibling_kernel_name(SIBK_ADD), "add");
    assert_string_equal(sibling_kernel_name(SIBK_NONE), "none");
    assert_null(sibling_kernel_name(SIBK_COUNT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_body_and_antagonist),
        cmocka_unit_test(test_all_is_every_antagonist_in_menu_order),
        cmocka_unit_test(test_bad_text_keeps_the_default),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
