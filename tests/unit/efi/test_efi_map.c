/* The UEFI boot's memory map (kernel/bare/efi/efi_map.c): the prelude's
 * ranges, in whatever order the firmware listed them, become the kernel's
 * map sorted by base, neighbours of one type joined, at most BOOT_MMAP_MAX
 * entries (the highest left out); a boot that did not come through the EFI
 * entry keeps GRUB's map untouched. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "bare/boot_info.h"
#include "bare/efi/efi_log.h"
#include "bare/efi/efi_state.h"

struct boot_info boot_info;
struct efi_state efi_state;

static void range(uint64_t base, uint64_t length, uint32_t type)
{
    struct efi_range *r = &efi_state.map[efi_state.nmap++];
    r->base = base;
    r->length = length;
    r->type = type;
}

static void expect(unsigned i, uint64_t base, uint64_t length, uint32_t type)
{
    assert_int_equal(boot_info.mmap[i].base, base);
    assert_int_equal(boot_info.mmap[i].length, length);
    assert_int_equal(boot_info.mmap[i].type, type);
}

static int fresh(void **state)
{
    (void)state;
    memset(&boot_info, 0, sizeof boot_info);
    memset(&efi_state, 0, sizeof efi_state);
    return 0;
}

static void sorted_and_joined_by_type(void **state)
{
    (void)state;
    efi_state.entered = 1;
    range(0x200000, 0x100000, 1);
    range(0x0, 0x1000, 2);
    range(0x100000, 0x100000, 1);  /* touches the first: joined */
    range(0x1000, 0x9f000, 1);
    range(0x300000, 0x1000, 3);    /* touches, another type: kept apart */
    range(0x400000, 0x1000, 1);    /* a gap before it: kept apart */
    efi_adopt_memory_map();
    assert_int_equal(boot_info.nmmap, 5);
    expect(0, 0x0, 0x1000, 2);
    expect(1, 0x1000, 0x9f000, 1);
    expect(2, 0x100000, 0x200000, 1);
    expect(3, 0x300000, 0x1000, 3);
    expect(4, 0x400000, 0x1000, 1);
}

static void past_the_limit_the_highest_are_left_out(void **state)
{
    (void)state;
    efi_state.entered = 1;
    for (unsigned i = BOOT_MMAP_MAX + 5; i-- > 0;) /* descending, alternating types: nothing joins */
        range(0x100000ull * (i + 1), 0x1000, 1 + (i & 1));
    efi_adopt_memory_map();
    assert_int_equal(boot_info.nmmap, BOOT_MMAP_MAX);
    expect(0, 0x100000, 0x1000, 1);
    expect(BOOT_MMAP_MAX - 1, 0x100000ull * BOOT_MMAP_MAX, 0x1000, 1 + ((BOOT_MMAP_MAX - 1) & 1));
}

static void without_the_efi_entry_grubs_map_stays(void **state)
{
    (void)state;
    boot_info.nmmap = 1;
    boot_info.mmap[0].base = 0x100000;
    boot_info.mmap[0].length = 0x7f00000;
    boot_info.mmap[0].type = MEM_USABLE;
    range(0x0, 0x1000, 1); /* (not entered: ignored) */
    efi_adopt_memory_map();
    assert_int_equal(boot_info.nmmap, 1);
    expect(0, 0x100000, 0x7f00000, MEM_USABLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(sorted_and_joined_by_type, fresh),
        cmocka_unit_test_setup(past_the_limit_the_highest_are_left_out, fresh),
        cmocka_unit_test_setup(without_the_efi_entry_grubs_map_stays, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
