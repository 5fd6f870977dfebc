/* The SMBIOS parser (kernel/bare/firmware/smbios.c) on hand-built
 * entry points and structure tables: the fields of types 0, 1, 2 and 17 as
 * DSP0134 3.x lays them out, and malformed input rejected with a reason,
 * never read past its end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "bare/firmware/smbios.h"

static uint8_t buf[1024];
static size_t used;

static void put(const void *p, size_t n)
{
    memcpy(buf + used, p, n);
    used += n;
}

/* A structure: header (type, length, handle), the formatted bytes after the
 * header, then the strings (each NUL-ended) and the closing NUL. */
static void structure(uint8_t type, const uint8_t *fmt, uint8_t fmt_len, const char *const *strs,
                      unsigned nstr)
{
    uint8_t hdr[4] = { type, (uint8_t)(4 + fmt_len), (uint8_t)used, 0 };
    put(hdr, 4);
    put(fmt, fmt_len);
    for (unsigned i = 0; i < nstr; i++)
        put(strs[i], strlen(strs[i]) + 1);
    if (nstr == 0)
        put("", 1);
    put("", 1);
}

static void good_table(void)
{
    used = 0;
    uint8_t t0[0x14] = { 1, 2, 0, 0, 3 }; /* 0x04 vendor=1, 0x05 version=2, 0x08 date=3 */
    const char *s0[] = { "Vendor Inc.", "1.2.3", "01/02/2025" };
    structure(0, t0, sizeof t0, s0, 3);
    uint8_t t1[0x17] = { 1, 2, 3, 4 };
    const char *s1[] = { "Maker", "Box 9", "rev A", "SERIAL-NOT-KEPT" };
    structure(1, t1, sizeof t1, s1, 4);
    uint8_t t2[0x0B] = { 1, 2, 3 };
    const char *s2[] = { "Board Co", "MB-1", "v2" };
    structure(2, t2, sizeof t2, s2, 3);
    uint8_t t17[0x54] = { 0 };     /* a 3.2-style memory device, offsets less 4 */
    t17[0x0C - 4] = 0xFF; t17[0x0D - 4] = 0x7F;       /* size 0x7FFF: see extended size */
    t17[0x1C - 4] = 0x00; t17[0x1D - 4] = 0x80;       /* extended size 0x8000 MiB = 32 GiB */
    t17[0x10 - 4] = 1; t17[0x11 - 4] = 2; t17[0x12 - 4] = 0x1A; /* DDR4 */
    t17[0x15 - 4] = 0x80; t17[0x16 - 4] = 0x0C;       /* 3200 MT/s */
    t17[0x20 - 4] = 0x60; t17[0x21 - 4] = 0x09;       /* configured 2400 */
    const char *s17[] = { "DIMM A1", "BANK 0" };
    structure(17, t17, sizeof t17, s17, 2);
    uint8_t e17[0x11] = { 0 };     /* an SMBIOS 2.1 device: an empty slot, no speed field */
    e17[0x10 - 4] = 1;
    const char *se[] = { "DIMM B1" };
    structure(17, e17, sizeof e17, se, 1);
    uint8_t k17[0x13] = { 0 };     /* 512 KiB (bit 15: KiB units), speed 0: unknown */
    k17[0x0C - 4] = 0x00; k17[0x0D - 4] = 0x82;
    structure(17, k17, sizeof k17, NULL, 0);
    structure(127, NULL, 0, NULL, 0);
}

static void reads_bios_system_board_and_memory(void **state)
{
    (void)state;
    good_table();
    struct platform_smbios sm = { 0 };
    smbios_table_parse(buf, used, &sm);
    assert_null(sm.problem);
    assert_int_equal(sm.structures, 7);
    assert_string_equal(sm.bios_vendor, "Vendor Inc.");
    assert_string_equal(sm.bios_version, "1.2.3");
    assert_string_equal(sm.bios_date, "01/02/2025");
    assert_string_equal(sm.sys_manufacturer, "Maker");
    assert_string_equal(sm.sys_product, "Box 9");
    assert_string_equal(sm.sys_version, "rev A");
    assert_string_equal(sm.board_manufacturer, "Board Co");
    assert_string_equal(sm.board_product, "MB-1");
    assert_int_equal(sm.mem_total, 3);
    assert_int_equal(sm.nmem, 3);
    assert_string_equal(sm.mem[0].locator, "DIMM A1");
    assert_string_equal(sm.mem[0].bank, "BANK 0");
    assert_true(sm.mem[0].installed && sm.mem[0].size_known);
    assert_int_equal(sm.mem[0].size_kib, 32ull * 1024 * 1024);
    assert_int_equal(sm.mem[0].speed_mts, 3200);
    assert_int_equal(sm.mem[0].configured_mts, 2400);
    assert_int_equal(sm.mem[0].type, 0x1A);
    assert_string_equal(sm.mem[1].locator, "DIMM B1");
    assert_false(sm.mem[1].installed);
    assert_int_equal(sm.mem[1].configured_mts, 0); /* the field is not in a 2.1 structure */
    assert_int_equal(sm.mem[2].size_kib, 512);
    assert_string_equal(sm.mem[2].locator, "");
}

static void stops_at_end_of_table(void **state)
{
    (void)state;
    good_table();
    uint8_t junk[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    put(junk, sizeof junk); /* after type 127: never read as a structure */
    struct platform_smbios sm = { 0 };
    smbios_table_parse(buf, used, &sm);
    assert_null(sm.problem);
    assert_int_equal(sm.structures, 7);
}

static void short_header_is_rejected(void **state)
{
    (void)state;
    good_table();
    buf[1] = 3; /* the first structure claims 3 bytes */
    struct platform_smbios sm = { 0 };
    smbios_table_parse(buf, used, &sm);
    assert_string_equal(sm.problem, "a structure's length is below its 4-byte header; the walk stopped there");
    assert_int_equal(sm.structures, 0);
}

static void formatted_area_past_the_end_is_rejected(void **state)
{
    (void)state;
    good_table();
    struct platform_smbios sm = { 0 };
    smbios_table_parse(buf, 10, &sm); /* the table cut inside the first structure */
    assert_string_equal(sm.problem,
                        "a structure's formatted area runs past the table; the walk stopped there");
    assert_false(sm.have_bios);
}

static void unterminated_strings_are_rejected(void **state)
{
    (void)state;
    used = 0;
    uint8_t t1[4] = { 1, 2 };
    put((uint8_t[]){ 1, 8, 0, 0 }, 4);
    put(t1, 4);
    put("Maker", 5); /* no NUL before the table ends */
    struct platform_smbios sm = { 0 };
    smbios_table_parse(buf, used, &sm);
    assert_non_null(sm.problem);
    assert_false(sm.have_system);
}

static void odd_strings_are_cleaned(void **state)
{
    (void)state;
    used = 0;
    uint8_t t1[4] = { 1, 7 }; /* product names string 7 of 1 */
    const char *s[] = { "Ma\x01ker\x7f" };
    structure(1, t1, sizeof t1, s, 1);
    struct platform_smbios sm = { 0 };
    smbios_table_parse(buf, used, &sm);
    assert_string_equal(sm.sys_manufacturer, "Ma?ker?");
    assert_string_equal(sm.sys_product, "");
}

static void entry21(uint8_t *ep, uint32_t addr, uint16_t len)
{
    memset(ep, 0, 0x1F);
    memcpy(ep, "_SM_", 4);
    ep[5] = 0x1F;
    ep[6] = 2;
    ep[7] = 8;
    memcpy(ep + 0x10, "_DMI_", 5);
    memcpy(ep + 0x16, &len, 2);
    memcpy(ep + 0x18, &addr, 4);
    uint8_t s = 0;
    for (int i = 0x10; i < 0x1F; i++)
        s = (uint8_t)(s + ep[i]);
    ep[0x15] = (uint8_t)-s;
    s = 0;
    for (int i = 0; i < 0x1F; i++)
        s = (uint8_t)(s + ep[i]);
    ep[4] = (uint8_t)-s;
}

static void entry_point_21(void **state)
{
    (void)state;
    uint8_t ep[0x1F];
    entry21(ep, 0xF5A10, 388);
    struct platform_smbios sm = { 0 };
    assert_int_equal(smbios_entry_len(ep, sizeof ep), 0x1F);
    assert_null(smbios_entry_parse(ep, sizeof ep, &sm));
    assert_int_equal(sm.major, 2);
    assert_int_equal(sm.minor, 8);
    assert_int_equal(sm.table_addr, 0xF5A10);
    assert_int_equal(sm.table_len, 388);
    ep[4]++;
    assert_string_equal(smbios_entry_parse(ep, sizeof ep, &sm), "_SM_ entry point: bad checksum");
    entry21(ep, 0xF5A10, 388);
    ep[0x11] = 'X'; /* "_XMI_" */
    ep[4] = (uint8_t)(ep[4] - ('X' - 'D'));
    assert_string_equal(smbios_entry_parse(ep, sizeof ep, &sm),
                        "_SM_ entry point: the intermediate _DMI_ anchor or its checksum is wrong");
    entry21(ep, 0xF5A10, 388);
    assert_string_equal(smbios_entry_parse(ep, 0x1E, &sm), "no _SM_ or _SM3_ anchor"); /* too short */
}

static void entry_point_30(void **state)
{
    (void)state;
    uint8_t ep[0x18] = { '_', 'S', 'M', '3', '_', 0, 0x18, 3, 6, 1, 1, 0 };
    uint32_t max = 4096;
    uint64_t addr = 0x7F000000ull;
    memcpy(ep + 0x0C, &max, 4);
    memcpy(ep + 0x10, &addr, 8);
    uint8_t s = 0;
    for (int i = 0; i < 0x18; i++)
        s = (uint8_t)(s + ep[i]);
    ep[5] = (uint8_t)-s;
    struct platform_smbios sm = { 0 };
    assert_null(smbios_entry_parse(ep, sizeof ep, &sm));
    assert_int_equal(sm.major, 3);
    assert_int_equal(sm.minor, 6);
    assert_int_equal(sm.table_addr, addr);
    assert_int_equal(sm.table_len, 4096);
    ep[6] = 0x40; /* a length past the bytes given */
    assert_string_equal(smbios_entry_parse(ep, sizeof ep, &sm),
                        "_SM3_ entry point: its length byte is below 0x18 or past the bytes given");
    ep[6] = 0x18;
    memset(ep + 0x10, 0, 8);
    ep[5] = (uint8_t)(ep[5] + 0x7F); /* keep the checksum: address 0 */
    assert_string_equal(smbios_entry_parse(ep, sizeof ep, &sm),
                        "the entry point gives no structure table (length below 4 or address 0)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_bios_system_board_and_memory),
        cmocka_unit_test(stops_at_end_of_table),
        cmocka_unit_test(short_header_is_rejected),
        cmocka_unit_test(formatted_area_past_the_end_is_rejected),
        cmocka_unit_test(unterminated_strings_are_rejected),
        cmocka_unit_test(odd_strings_are_cleaned),
        cmocka_unit_test(entry_point_21),
        cmocka_unit_test(entry_point_30),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
