/* The BIOS-area RSDP search (acpi_rsdp_search, ACPI 6.5 §5.2.5.1) over a
 * buffer standing for the first MiB of physical memory: the EBDA's first
 * KiB before 0xE0000-0xFFFFF, only 16-byte boundaries, only RSDPs whose
 * checksums hold, an EBDA pointer outside where an EBDA can be ignored.
 * SeaBIOS keeps its RSDP at 0xF59D0 (found there by
 * tests/boot/test_acpi_scan.py), so the EBDA half is tested only here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "bare/firmware/acpi.h"

#define MIB 0x100000u
static uint8_t *mem;
static bool refuse_all;

static const void *test_map(void *ctx, uint64_t phys, uint32_t len)
{
    (void)ctx;
    if (refuse_all || phys >= MIB || len > MIB - phys)
        return NULL;
    return mem + phys;
}
static const struct acpi_mem test_mem = { test_map, NULL };

static int fresh(void **state)
{
    (void)state;
    if (!mem)
        mem = malloc(MIB);
    memset(mem, 0, MIB);
    refuse_all = false;
    return 0;
}

/* An RSDP (§5.2.5.3) at phys: revision 0 (20 bytes) or 2 (36 bytes, both
 * checksums). */
static void rsdp_at(uint32_t phys, uint8_t revision)
{
    uint8_t *p = mem + phys;
    uint32_t len = 36;
    memcpy(p, "RSD PTR ", 8);
    memcpy(p + 9, "CKTEST", 6);
    p[15] = revision;
    if (revision >= 2)
        memcpy(p + 20, &len, 4);
    p[8] = (uint8_t)-acpi_sum(p, 20);
    if (revision >= 2)
        p[32] = (uint8_t)-acpi_sum(p, 36);
}

static void ebda_segment(uint16_t seg)
{
    memcpy(mem + 0x40e, &seg, 2);
}

static void found_where_seabios_keeps_it(void **state)
{
    (void)state;
    rsdp_at(0xf59d0, 0);
    assert_int_equal(acpi_rsdp_search(&test_mem), 0xf59d0);
}

static void ebda_first(void **state)
{
    (void)state;
    ebda_segment(0x9fc0);
    rsdp_at(0x9fc00 + 0x40, 2);
    rsdp_at(0xe0000, 0);
    assert_int_equal(acpi_rsdp_search(&test_mem), 0x9fc40);
}

static void only_the_ebdas_first_kib(void **state)
{
    (void)state;
    ebda_segment(0x9fc0);
    rsdp_at(0x9fc00 + 0x400, 0); /* just past the first KiB */
    assert_int_equal(acpi_rsdp_search(&test_mem), 0);
    rsdp_at(0xfffe0, 0);         /* the last boundary a 20-byte RSDP fits below 1 MiB */
    assert_int_equal(acpi_rsdp_search(&test_mem), 0xfffe0);
}

static void ebda_pointer_outside_its_range_ignored(void **state)
{
    (void)state;
    ebda_segment(0x1000);        /* 0x10000: no EBDA lies there */
    rsdp_at(0x10000, 0);
    assert_int_equal(acpi_rsdp_search(&test_mem), 0);
    ebda_segment(0xa000);        /* 0xA0000: video memory */
    rsdp_at(0xa0000, 0);
    assert_int_equal(acpi_rsdp_search(&test_mem), 0);
}

static void only_16_byte_boundaries(void **state)
{
    (void)state;
    rsdp_at(0xe0008, 0);
    assert_int_equal(acpi_rsdp_search(&test_mem), 0);
}

static void broken_candidates_skipped(void **state)
{
    (void)state;
    rsdp_at(0xe0000, 0);
    mem[0xe0000 + 9] ^= 1;       /* checksum over the first 20 bytes broken */
    rsdp_at(0xe0100, 2);
    mem[0xe0100 + 33] ^= 1;      /* extended checksum broken */
    memcpy(mem + 0xe0200, "RSD PTR ", 8); /* a signature alone */
    rsdp_at(0xe0300, 2);
    assert_int_equal(acpi_rsdp_search(&test_mem), 0xe0300);
}

static void nothing_readable_nothing_found(void **state)
{
    (void)state;
    rsdp_at(0xf0000, 0);
    refuse_all = true;
    assert_int_equal(acpi_rsdp_search(&test_mem), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(found_where_seabios_keeps_it, fresh),
        cmocka_unit_test_setup(ebda_first, fresh),
        cmocka_unit_test_setup(only_the_ebdas_first_kib, fresh),
        cmocka_unit_test_setup(ebda_pointer_outside_its_range_ignored, fresh),
        cmocka_unit_test_setup(only_16_byte_boundaries, fresh),
        cmocka_unit_test_setup(broken_candidates_skipped, fresh),
        cmocka_unit_test_setup(nothing_readable_nothing_found, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
