/* Throughput per instruction (issue 20, point 5): a /tput body of N copies
 * of one instruction is reported per body and, as uops.info gives it, per
 * instruction: the cost per body / N to the nearest hundredth (halves away
 * from zero), in the record's per_instruction object and beside the cycles
 * on the readable row; nothing for a body that declares no N. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "harness/per_insn.h"
#include "report/write.h"

static void the_division_rounds_to_the_nearest_hundredth(void **state)
{
    (void)state;
    assert_int_equal(per_insn_divide(400, 4), 100);  /* 4.00 / 4 = 1.00 */
    assert_int_equal(per_insn_divide(123, 4), 31);   /* 0.3075 */
    assert_int_equal(per_insn_divide(122, 4), 31);   /* 0.305: the half goes up */
    assert_int_equal(per_insn_divide(121, 4), 30);   /* 0.3025 */
    assert_int_equal(per_insn_divide(100, 12), 8);   /* 0.0833 */
    assert_int_equal(per_insn_divide(133, 4), 33);   /* 0.3325 */
    assert_int_equal(per_insn_divide(-6, 4), -2);    /* -0.015: away from zero */
    assert_int_equal(per_insn_divide(-5, 4), -1);
    assert_int_equal(per_insn_divide(0, 6), 0);
    assert_int_equal(per_insn_divide(777, 1), 777);
    assert_int_equal(per_insn_divide(INT64_C(4000000000000), 3), INT64_C(1333333333333));
}

static const struct bench tput = { .name = "lat/imul/tput", .desc = "imul on 4 registers",
                                   .insns = 4, .per_body = 4 };
static const struct bench chain = { .name = "lat/imul", .desc = "imul chain", .insns = 1 };

static struct result result_of(const struct bench *b, struct measurement *m, int64_t ticks_x100,
                               bool have_cycles, int64_t cycles_x100)
{
    static struct event_counts ec = { .cycles_index = -1 };
    memset(m, 0, sizeof *m);
    m->unroll = 8;
    m->loops = 100;
    m->samples = 5;
    m->value_x100 = ticks_x100;
    m->methods_agree = true;
    struct result r = { .b = b, .m = m, .ec = &ec, .have_cycles = have_cycles,
                        .cycles_x100 = cycles_x100, .cycles_unit = "estimate",
                        .time_unit = "tsc", .verdict = "no expectation" };
    return r;
}

static void only_a_body_of_copies_has_a_per_instruction_cost(void **state)
{
    (void)state;
    struct measurement m;
    struct per_instruction pi;
    struct result r = result_of(&tput, &m, 254, true, 400);
    assert_true(per_instruction_of(&r, &pi));
    assert_int_equal(pi.n, 4);
    assert_true(pi.have_cycles);
    assert_int_equal(pi.cycles_x100, 100);
    assert_int_equal(pi.ticks_x100, 64);     /* 2.54 / 4 = 0.635 */
    r = result_of(&tput, &m, 254, false, 0);
    assert_true(per_instruction_of(&r, &pi));
    assert_false(pi.have_cycles);
    r = result_of(&chain, &m, 254, true, 400);
    assert_false(per_instruction_of(&r, &pi));
}

static void the_record_and_the_row_carry_it(void **state)
{
    (void)state;
    struct measurement m;
    struct result r = result_of(&tput, &m, 254, true, 400);
    capture_reset();
    write_result(&r);
    assert_non_null(strstr(capture_machine(), "\"per_instruction\":{\"n\":4,\"cycles\":1.00,\"ticks\":0.64}"));
    assert_non_null(strstr(capture_human(), "    4.00~    1.00~ ")); /* its own column */

    r = result_of(&tput, &m, 254, false, 0); /* no cycle unit: ticks per instruction */
    capture_reset();
    write_result(&r);
    assert_non_null(strstr(capture_machine(), "\"per_instruction\":{\"n\":4,\"cycles\":null,\"ticks\":0.64}"));
    assert_non_null(strstr(capture_human(), "        -     0.64t ")); /* t: ticks, no cycle unit */

    r = result_of(&chain, &m, 254, true, 400);
    capture_reset();
    write_result(&r);
    assert_null(strstr(capture_machine(), "per_instruction"));
    assert_null(strstr(capture_human(), "/insn"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_division_rounds_to_the_nearest_hundredth),
        cmocka_unit_test(only_a_body_of_copies_has_a_per_instruction_cost),
        cmocka_unit_test(the_record_and_the_row_carry_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
