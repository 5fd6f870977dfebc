/* The ACPI parser (kernel/bare/firmware/acpi.c, madt.c) over a
 * buffer that stands for physical memory: tables as QEMU's and real
 * firmware build them, and each way they can be broken (ACPI spec 6.5
 * §5.2.5-§5.2.8, §5.2.12). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "bare/firmware/acpi.h"
#include "bare/firmware/madt.h"

#define BASE 0x10000u
static uint8_t mem[0x4000];

static const void *test_map(void *ctx, uint64_t phys, uint32_t len)
{
    (void)ctx;
    if (phys < BASE || phys - BASE > sizeof mem || len > sizeof mem - (phys - BASE))
        return NULL;
    return mem + (phys - BASE);
}
static const struct acpi_mem test_mem = { test_map, NULL };

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* A table header (§5.2.6) at BASE + off with len bytes in all, then its checksum. */
static uint8_t *header(uint32_t off, const char *sig, uint32_t len)
{
    uint8_t *t = mem + off;
    memcpy(t, sig, 4);
    put32(t + 4, len);
    t[8] = 1;
    memcpy(t + 10, "CKTEST", 6);
    return t;
}
static void seal(uint8_t *t)
{
    uint32_t len;
    memcpy(&len, t + 4, 4);
    t[9] = 0;
    t[9] = (uint8_t)-acpi_sum(t, len);
}

static uint8_t rsdp[36];
static void make_rsdp(uint8_t revision, uint32_t rsdt, uint64_t xsdt)
{
    memset(rsdp, 0, sizeof rsdp);
    memcpy(rsdp, "RSD PTR ", 8);
    memcpy(rsdp + 9, "BOCHS ", 6);
    rsdp[15] = revision;
    put32(rsdp + 16, rsdt);
    put32(rsdp + 20, 36);
    put64(rsdp + 24, xsdt);
    rsdp[8] = (uint8_t)-acpi_sum(rsdp, 20);
    rsdp[32] = (uint8_t)-acpi_sum(rsdp, 36);
}

/* FACP at 0x100, MADT at 0x200 with four processors: two local APIC
 * entries (one disabled, one online-capable), one x2APIC entry, and a
 * type 0 entry repeating APIC ID 0. */
static void machine(void)
{
    memset(mem, 0, sizeof mem);
    seal(header(0x100, "FACP", 116));
    uint8_t *m = header(0x200, "APIC", 44 + 8 * 4 + 16);
    put32(m + 36, 0xfee00000u);
    put32(m + 40, 1);
    uint8_t *e = m + 44;
    const uint8_t lapics[4][8] = { { 0, 8, 0, 0, 1 }, { 0, 8, 1, 1, 1 }, { 0, 8, 2, 2, 0 }, { 0, 8, 3, 3, 2 } };
    memcpy(e, lapics, sizeof lapics);
    e += sizeof lapics;
    e[0] = 9, e[1] = 16;
    put32(e + 4, 0x100), put32(e + 8, 1), put32(e + 12, 7);
    seal(m);
    uint8_t *r = header(0x40, "RSDT", 36 + 8);
    put32(r + 36, BASE + 0x100), put32(r + 40, BASE + 0x200);
    seal(r);
    uint8_t *x = header(0x800, "XSDT", 36 + 16);
    put64(x + 36, BASE + 0x100), put64(x + 44, BASE + 0x200);
    seal(x);
}

static void good_tables(void **state)
{
    (void)state;
    machine();
    make_rsdp(2, BASE + 0x40, BASE + 0x800);
    struct acpi_info info;
    acpi_parse(&test_mem, rsdp, 36, "test", &info);
    assert_true(info.found);
    assert_true(info.xsdt);
    assert_int_equal(info.nproblems, 0);
    assert_string_equal(info.oem_id, "BOCHS");
    assert_int_equal(info.ntables, 2);
    assert_string_equal(info.tables[0].sig, "FACP");
    assert_string_equal(info.tables[1].sig, "APIC");
    assert_ptr_equal(acpi_table_find(&info, &test_mem, "APIC"), mem + 0x200);
    assert_null(acpi_table_find(&info, &test_mem, "HPET"));

    struct madt_info m;
    madt_parse(acpi_table_find(&info, &test_mem, "APIC"), &m, &info);
    assert_true(m.present);
    assert_int_equal(m.lapic_addr, 0xfee00000u);
    assert_int_equal(m.ncpus, 5);
    assert_int_equal(m.cpus[0].apic_id, 0);
    assert_true(m.cpus[0].enabled);
    assert_false(m.cpus[2].enabled);
    assert_false(m.cpus[2].online_capable);
    assert_true(m.cpus[3].online_capable);
    assert_int_equal(m.cpus[4].apic_id, 0x100);
    assert_true(m.cpus[4].x2apic);
    assert_int_equal(m.cpus[4].uid, 7);
    assert_int_equal(madt_usable(&m), 4);
}

static void revision0_uses_rsdt(void **state)
{
    (void)state;
    machine();
    make_rsdp(0, BASE + 0x40, BASE + 0x800); /* the XSDT field is not part of a v1 RSDP */
    struct acpi_info info;
    acpi_parse(&test_mem, rsdp, 20, "test", &info);
    assert_true(info.found);
    assert_false(info.xsdt);
    assert_int_equal(info.ntables, 2);
}

static void bad_rsdp(void **state)
{
    (void)state;
    machine();
    make_rsdp(2, BASE + 0x40, BASE + 0x800);
    struct acpi_info info;
    rsdp[9] ^= 1; /* both checksums now wrong */
    acpi_parse(&test_mem, rsdp, 36, "test", &info);
    assert_false(info.found);
    assert_int_equal(info.nproblems, 1);
    assert_string_equal(info.problems[0],
                        "RSDP from test: the RSDP checksum (first 20 bytes) is wrong; ACPI not used");
    make_rsdp(2, BASE + 0x40, BASE + 0x800);
    rsdp[33] ^= 1; /* only the extended one */
    assert_string_equal(acpi_rsdp_check(rsdp, 36), "the RSDP extended checksum is wrong");
    make_rsdp(2, BASE + 0x40, BASE + 0x800);
    assert_string_equal(acpi_rsdp_check(rsdp, 30), "a revision 2 RSDP shorter than 36 bytes");
    memcpy(rsdp, "RSD PTX ", 8);
    assert_string_equal(acpi_rsdp_check(rsdp, 36), "no \"RSD PTR \" signature");
}

static void broken_xsdt_falls_back_to_rsdt(void **state)
{
    (void)state;
    machine();
    mem[0x800 + 40] ^= 0x55; /* the XSDT's checksum no longer holds */
    make_rsdp(2, BASE + 0x40, BASE + 0x800);
    struct acpi_info info;
    acpi_parse(&test_mem, rsdp, 36, "test", &info);
    assert_true(info.found);
    assert_false(info.xsdt);
    assert_int_equal(info.ntables, 2);
    assert_int_equal(info.nproblems, 1);
    assert_non_null(strstr(info.problems[0], "XSDT 'XSDT' at 0x10800: checksum wrong"));
}

static void malformed_tables_are_left_out(void **state)
{
    (void)state;
    machine();
    /* The RSDT lists FACP, APIC, a table far beyond memory, one whose
     * length runs past the end, one shorter than a header, one with a bad
     * checksum. */
    uint8_t *r = header(0x40, "RSDT", 36 + 6 * 4);
    put32(r + 36, BASE + 0x100), put32(r + 40, BASE + 0x200), put32(r + 44, 0xfff00000u);
    put32(r + 48, BASE + 0x3f00), put32(r + 52, BASE + 0x1000), put32(r + 56, BASE + 0x1100);
    seal(r);
    seal(header(0x3f00, "LONG", 0x200));
    header(0x1000, "SHRT", 20);
    seal(header(0x1100, "BADC", 40));
    mem[0x1100 + 38] = 1;
    make_rsdp(0, BASE + 0x40, 0);
    struct acpi_info info;
    acpi_parse(&test_mem, rsdp, 20, "test", &info);
    assert_true(info.found);
    assert_int_equal(info.ntables, 2);
    assert_int_equal(info.nproblems, 4);
    assert_string_equal(info.problems[0], "table at 0xfff00000: not in readable memory; ignored");
    assert_string_equal(info.problems[1],
                        "table 'LONG' at 0x13f00: its 512 bytes reach beyond readable memory; ignored");
    assert_string_equal(info.problems[2], "table 'SHRT' at 0x11000: length 20 is not 36..1048576; ignored");
    assert_string_equal(info.problems[3],
                        "table 'BADC' at 0x11100: checksum wrong (bytes sum to 0x01); ignored");
}

static void madt_entry_problems(void **state)
{
    (void)state;
    machine();
    uint8_t *m = mem + 0x200;
    m[44 + 8 + 1] = 0; /* the second entry's length: 0 would loop forever */
    struct acpi_info info = { 0 };
    struct madt_info out;
    madt_parse(m, &out, &info);
    assert_int_equal(out.ncpus, 1);
    assert_string_equal(info.problems[0], "MADT entry at offset 52: length 0 is under 2; the rest of the MADT ignored");
    machine();
    m[44 + 32 + 1] = 40; /* the x2APIC entry claims more than the table holds */
    memset(&info, 0, sizeof info);
    madt_parse(m, &out, &info);
    assert_int_equal(out.ncpus, 4);
    assert_string_equal(info.problems[0],
                        "MADT entry at offset 76: length 40 reaches past the table's end; the rest of the MADT ignored");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_tables),
        cmocka_unit_test(revision0_uses_rsdt),
        cmocka_unit_test(bad_rsdp),
        cmocka_unit_test(broken_xsdt_falls_back_to_rsdt),
        cmocka_unit_test(malformed_tables_are_left_out),
        cmocka_unit_test(madt_entry_problems),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
