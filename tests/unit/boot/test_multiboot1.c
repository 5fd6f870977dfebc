/* The Multiboot 1 reader (kernel/bare/multiboot1.c) on information laid
 * out as QEMU's -kernel lays it out (Multiboot Specification 0.6.96 §3.3):
 * the options after the kernel's file name, the memory map, the modules,
 * the loader's name; flags that are clear leave their fields unread; a
 * wrong magic leaves boot_info untouched. The structure holds 32-bit
 * physical addresses, so it lives below 4 GiB (MAP_32BIT) where an address
 * is also the pointer, as on the machine. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "bare/boot_info.h"
#include "bare/multiboot1.h"

static uint8_t *low;    /* 64 KiB below 4 GiB */
static uint32_t used;

static uint32_t put(const void *bytes, uint32_t n)
{
    uint32_t at = (uint32_t)(uintptr_t)(low + used);
    memcpy(low + used, bytes, n);
    used += (n + 15) & ~15u;
    return at;
}

static uint32_t put_str(const char *s)
{
    return put(s, (uint32_t)strlen(s) + 1);
}

struct info { uint32_t w[18]; };  /* flags .. boot_loader_name (offset 64) */

static int setup(void **state)
{
    (void)state;
    low = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
    assert_true(low != MAP_FAILED);
    used = 0;
    memset(&boot_info, 0, sizeof boot_info);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    munmap(low, 65536);
    return 0;
}

static const void *info_at(struct info *i)
{
    return (const void *)(uintptr_t)put(i, sizeof *i);
}

static void qemu_layout_is_read_whole(void **state)
{
    (void)state;
    struct { uint32_t size; uint64_t base, length; uint32_t type; } __attribute__((packed)) map[2] = {
        { 20, 0, 0x9fc00, 1 }, { 20, 0x100000, 0x7f00000, 1 } };
    struct { uint32_t start, end, string, reserved; } mods[2] = {
        { 0x200000, 0x200100, put_str("/tmp/add2.ckb add two"), 0 }, { 0x201000, 0x201010, 0, 0 } };
    struct info i = { 0 };
    i.w[0] = 1u << 0 | 1u << 2 | 1u << 3 | 1u << 6 | 1u << 9;
    i.w[1] = 639;
    i.w[2] = 130048;
    i.w[4] = put_str("build/cyclekit.elf quick bench=calib/*");
    i.w[5] = 2;
    i.w[6] = put(mods, sizeof mods);
    i.w[11] = sizeof map;
    i.w[12] = put(map, sizeof map);
    i.w[16] = put_str("qemu");
    multiboot1_parse(MULTIBOOT1_BOOTLOADER_MAGIC, info_at(&i));

    assert_string_equal(boot_info.handoff, "multiboot");
    assert_string_equal(boot_info.cmdline, "quick bench=calib/*");
    assert_string_equal(boot_info.loader, "qemu");
    assert_int_equal(boot_info.mem_lower_kb, 639);
    assert_int_equal(boot_info.mem_upper_kb, 130048);
    assert_int_equal(boot_info.nmmap, 2);
    assert_int_equal(boot_info.mmap[1].base, 0x100000);
    assert_int_equal(boot_info.mmap[1].length, 0x7f00000);
    assert_int_equal(boot_info.mmap[1].type, 1);
    assert_int_equal(boot_info.nmodules, 2);
    assert_int_equal((uintptr_t)boot_info.modules[0].data, 0x200000);
    assert_int_equal(boot_info.modules[0].len, 0x100);
    assert_string_equal(boot_info.module_names[0], "multiboot module 1 (/tmp/add2.ckb add two)");
    assert_string_equal(boot_info.module_names[1], "multiboot module 2");
}

static void an_option_first_is_kept(void **state)
{
    (void)state;
    struct info i = { 0 };
    i.w[0] = 1u << 2;
    i.w[4] = put_str("  samples=5 quick");
    multiboot1_parse(MULTIBOOT1_BOOTLOADER_MAGIC, info_at(&i));
    assert_string_equal(boot_info.cmdline, "samples=5 quick");
}

static void clear_flags_leave_fields_unread(void **state)
{
    (void)state;
    struct info i = { 0 };
    for (unsigned k = 1; k < 18; k++)
        i.w[k] = 0xdeadbeef;  /* an address that would fault if followed */
    multiboot1_parse(MULTIBOOT1_BOOTLOADER_MAGIC, info_at(&i));
    assert_string_equal(boot_info.handoff, "multiboot");
    assert_string_equal(boot_info.cmdline, "");
    assert_int_equal(boot_info.nmmap, 0);
    assert_int_equal(boot_info.nmodules, 0);
    assert_int_equal(boot_info.mem_upper_kb, 0);
}

static void a_malformed_map_entry_ends_the_map(void **state)
{
    (void)state;
    struct { uint32_t size; uint64_t base, length; uint32_t type; } __attribute__((packed)) map[3] = {
        { 20, 0, 0x9fc00, 1 }, { 4, 0x100000, 0x7f00000, 1 }, { 20, 0x8000000, 0x1000, 2 } };
    struct info i = { 0 };
    i.w[0] = 1u << 6;
    i.w[11] = sizeof map;
    i.w[12] = put(map, sizeof map);
    multiboot1_parse(MULTIBOOT1_BOOTLOADER_MAGIC, info_at(&i));
    assert_int_equal(boot_info.nmmap, 1);
}

static void too_many_modules_are_counted_as_dropped(void **state)
{
    (void)state;
    struct { uint32_t start, end, string, reserved; } mods[BOOT_MODULES_MAX + 3];
    for (unsigned k = 0; k < BOOT_MODULES_MAX + 3; k++)
        mods[k] = (typeof(mods[0])){ 0x300000 + k * 0x1000, 0x300010 + k * 0x1000, 0, 0 };
    mods[0].end = mods[0].start - 1;  /* end before start: dropped too */
    struct info i = { 0 };
    i.w[0] = 1u << 3;
    i.w[5] = BOOT_MODULES_MAX + 3;
    i.w[6] = put(mods, sizeof mods);
    multiboot1_parse(MULTIBOOT1_BOOTLOADER_MAGIC, info_at(&i));
    assert_int_equal(boot_info.nmodules, BOOT_MODULES_MAX);
    assert_int_equal(boot_info.modules_dropped, 3);
}

static void wrong_magic_leaves_boot_info_untouched(void **state)
{
    (void)state;
    struct info i = { 0 };
    i.w[0] = 1u << 2;
    i.w[4] = put_str("k quick");
    multiboot1_parse(MULTIBOOT1_BOOTLOADER_MAGIC ^ 1, info_at(&i));
    multiboot1_parse(0x36d76289u, info_at(&i));  /* multiboot2's magic: not this reader's */
    assert_null(boot_info.handoff);
    assert_string_equal(boot_info.cmdline, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(qemu_layout_is_read_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(an_option_first_is_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(clear_flags_leave_fields_unread, setup, teardown),
        cmocka_unit_test_setup_teardown(a_malformed_map_entry_ends_the_map, setup, teardown),
        cmocka_unit_test_setup_teardown(too_many_modules_are_counted_as_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(wrong_magic_leaves_boot_info_untouched, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
