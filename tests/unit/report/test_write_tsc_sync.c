/* The smp/tsc table and record (kernel/report/cores/write_tsc_sync.c):
 * where CPUID says IA32_TSC_ADJUST exists but it could not be read (the
 * hosted runner may not read MSRs), the table says so and the record's
 * tsc_adjust is null, never a number; where it was read, its value. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "capture.h"
#include "report/write.h"
#include "smp/tsc_sync.h"

static struct tsc_sync two(bool exists, bool read)
{
    struct tsc_sync t;
    memset(&t, 0, sizeof t);
    t.adjust_exists = exists;
    t.n = 2;
    t.cpus[0] = (struct tsc_cpu){ .apic_id = 0, .boot = true, .measured = true, .have_adjust = read };
    t.cpus[1] = (struct tsc_cpu){ .apic_id = 2, .measured = true, .have_adjust = read, .adjust = read ? -5 : 0 };
    return t;
}

static void test_unreadable_tsc_adjust_is_said(void **state)
{
    (void)state;
    struct tsc_sync t = two(true, false);
    capture_reset();
    write_tsc_sync(&t, true);
    assert_non_null(strstr(capture_human(), "APIC ID   2: 0 +- 0, then 0 +- 0: synchronised; TSC_ADJUST not readable here\n"));
    assert_non_null(strstr(capture_machine(), "\"tsc_adjust_exists\":true"));
    assert_null(strstr(capture_machine(), "\"tsc_adjust\":-"));
    assert_non_null(strstr(capture_machine(), "\"apic_id\":2,\"boot\":false"));
    assert_non_null(strstr(capture_machine(), "\"tsc_adjust\":null}]"));
}

static void test_read_tsc_adjust_is_its_value(void **state)
{
    (void)state;
    struct tsc_sync t = two(true, true);
    capture_reset();
    write_tsc_sync(&t, true);
    assert_non_null(strstr(capture_human(), "synchronised; TSC_ADJUST -5\n"));
    assert_null(strstr(capture_human(), "not readable"));
    assert_non_null(strstr(capture_machine(), "\"tsc_adjust\":-5}]"));
}

static void test_no_tsc_adjust_says_nothing_of_it(void **state)
{
    (void)state;
    struct tsc_sync t = two(false, false);
    capture_reset();
    write_tsc_sync(&t, true);
    assert_null(strstr(capture_human(), "TSC_ADJUST"));
    assert_non_null(strstr(capture_machine(), "\"tsc_adjust_exists\":false"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unreadable_tsc_adjust_is_said),
        cmocka_unit_test(test_read_tsc_adjust_is_its_value),
        cmocka_unit_test(test_no_tsc_adjust_says_nothing_of_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
