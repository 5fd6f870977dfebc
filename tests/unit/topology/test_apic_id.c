/* The APIC ID rule a started processor applies to itself
 * (kernel/cpu/topology/apic_id.c): leaf 0xB's x2APIC ID where the leaf
 * exists and is valid, else leaf 1's 8-bit initial APIC ID. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu/topology/apic_id.h"

/* Leaf 1 only (max leaf 5, a Pentium 4 era part): EBX[31:24]. */
static void test_leaf1_when_no_leaf_b(void **state)
{
    (void)state;
    assert_int_equal(apic_id_from_cpuid(5, 0x07020800u, 0x2, 300), 7);
}

/* Leaf 0xB present and valid: its EDX, also above 255 (x2APIC only). */
static void test_leaf_b_x2apic_id(void **state)
{
    (void)state;
    assert_int_equal(apic_id_from_cpuid(0x10, 0x07020800u, 0x0002, 300), 300);
}

/* Leaf 0xB within range but EBX[15:0] = 0 (the leaf is not supported,
 * SDM Vol. 2A CPUID leaf 0BH): back to leaf 1. */
static void test_invalid_leaf_b_falls_back(void **state)
{
    (void)state;
    assert_int_equal(apic_id_from_cpuid(0xd, 0x03000000u, 0x10000, 300), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leaf1_when_no_leaf_b),
        cmocka_unit_test(test_leaf_b_x2apic_id),
        cmocka_unit_test(test_invalid_leaf_b_falls_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
