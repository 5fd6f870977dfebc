/* The multiboot2 reader (kernel/bare/multiboot2.c) on information laid out
 * as GRUB lays it out (Multiboot2 specification 2.0, §3.6): every tag kind
 * it reads is read whole (command line, loader, basic memory, memory map,
 * framebuffer, EFI 32/64, SMBIOS, ACPI old and new in either order,
 * modules), a tag that is too short leaves its fields unread, no tag past
 * the declared total or after the end tag is read, and a wrong magic leaves
 * boot_info untouched. The information holds 32-bit addresses (a module's),
 * not pointers, so it may live anywhere. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "bare/boot_info.h"
#include "bare/multiboot2.h"

static _Alignas(8) uint8_t buf[4096];
static uint32_t len;

static void begin(void)
{
    memset(buf, 0, sizeof buf);
    memset(&boot_info, 0, sizeof boot_info);
    len = 8;
}

/* A tag of type with body (n bytes), padded to 8 bytes as GRUB pads it. */
static void tag(uint32_t type, const void *body, uint32_t n)
{
    uint32_t size = 8 + n;
    memcpy(buf + len, &type, 4);
    memcpy(buf + len + 4, &size, 4);
    memcpy(buf + len + 8, body, n);
    len += (size + 7) & ~7u;
}

static const void *finish(void)
{
    tag(0, NULL, 0);
    memcpy(buf, &len, 4);
    return buf;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static void every_tag_is_read(void **state)
{
    (void)state;
    begin();
    tag(1, "/boot/cyclekit.elf bench=lat/*", 31);
    tag(2, "GRUB 2.06", 10);
    uint32_t meminfo[2] = { 639, 130048 };
    tag(4, meminfo, 8);
    /* entry_size, entry_version, then the entries (16 bytes from the tag's start). */
    uint8_t mmap[8 + 2 * 24] = { 0 };
    put32(mmap, 24);
    put64(mmap + 8, 0);          put64(mmap + 16, 0x9fc00);    put32(mmap + 24, 1);
    put64(mmap + 32, 0x100000);  put64(mmap + 40, 0x7ee0000);  put32(mmap + 48, 1);
    tag(6, mmap, sizeof mmap);
    uint8_t fb[30] = { 0 };
    put64(fb, 0x80000000u); put32(fb + 8, 4096); put32(fb + 12, 1024); put32(fb + 16, 768);
    fb[20] = 32; fb[21] = 1;
    memcpy(fb + 24, (uint8_t[]){ 16, 8, 8, 8, 0, 8 }, 6);
    tag(8, fb, sizeof fb);
    uint64_t systab = 0x7f9e018;
    tag(12, &systab, 8);
    uint8_t smbios[8 + 31] = { 0 };
    memcpy(smbios + 8, "_SM_", 4);
    tag(13, smbios, sizeof smbios);
    uint8_t rsdp_new[36] = "RSD PTR new";
    uint8_t rsdp_old[20] = "RSD PTR old";
    tag(15, rsdp_new, sizeof rsdp_new);
    tag(14, rsdp_old, sizeof rsdp_old);  /* after the new one: the new one stays */
    uint8_t mod[8 + 5];
    put32(mod, 0x200000); put32(mod + 4, 0x200080); memcpy(mod + 8, "add2", 5);
    tag(3, mod, sizeof mod);
    multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC, finish());

    assert_string_equal(boot_info.handoff, "multiboot2");
    assert_string_equal(boot_info.cmdline, "/boot/cyclekit.elf bench=lat/*");
    assert_string_equal(boot_info.loader, "GRUB 2.06");
    assert_int_equal(boot_info.mem_lower_kb, 639);
    assert_int_equal(boot_info.mem_upper_kb, 130048);
    assert_int_equal(boot_info.nmmap, 2);
    assert_int_equal(boot_info.mmap[1].base, 0x100000);
    assert_int_equal(boot_info.mmap[1].length, 0x7ee0000);
    assert_int_equal(boot_info.mmap[1].type, 1);
    assert_true(boot_info.fb.present);
    assert_int_equal(boot_info.fb.addr, 0x80000000u);
    assert_int_equal(boot_info.fb.pitch, 4096);
    assert_int_equal(boot_info.fb.width, 1024);
    assert_int_equal(boot_info.fb.height, 768);
    assert_int_equal(boot_info.fb.bpp, 32);
    assert_int_equal(boot_info.fb.type, 1);
    assert_memory_equal(boot_info.fb.color, ((uint8_t[]){ 16, 8, 8, 8, 0, 8 }), 6);
    assert_true(boot_info.efi && boot_info.efi64);
    assert_int_equal(boot_info.efi_systab, 0x7f9e018);
    assert_int_equal(boot_info.smbios_len, 31);
    assert_memory_equal(boot_info.smbios, "_SM_", 4);
    assert_int_equal(boot_info.acpi_tag, 15);
    assert_int_equal(boot_info.acpi_rsdp_len, 36);
    assert_memory_equal(boot_info.acpi_rsdp, "RSD PTR new", 11);
    assert_int_equal(boot_info.nmodules, 1);
    assert_int_equal((uintptr_t)boot_info.modules[0].data, 0x200000);
    assert_int_equal(boot_info.modules[0].len, 0x80);
    assert_non_null(strstr(boot_info.module_names[0], "add2"));
}

static void efi32_and_short_tags(void **state)
{
    (void)state;
    begin();
    uint32_t systab32 = 0x7f000;
    tag(11, &systab32, 4);
    uint32_t meminfo_short = 639;
    tag(4, &meminfo_short, 4);                   /* one field of two: not read */
    uint8_t fb_short[21] = { 1 };
    tag(8, fb_short, sizeof fb_short);           /* a byte short of type: not read */
    uint32_t mmap_bad[2] = { 16, 0 };
    tag(6, mmap_bad, sizeof mmap_bad);           /* entries of 16 bytes: fewer than an entry holds */
    uint8_t smbios_empty[8] = { 0 };
    tag(13, smbios_empty, sizeof smbios_empty);  /* no entry point */
    multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC, finish());
    assert_true(boot_info.efi);
    assert_false(boot_info.efi64);
    assert_int_equal(boot_info.efi_systab, 0x7f000);
    assert_int_equal(boot_info.mem_lower_kb, 0);
    assert_false(boot_info.fb.present);
    assert_int_equal(boot_info.nmmap, 0);
    assert_int_equal(boot_info.smbios_len, 0);
}

static void nothing_past_the_total_or_the_end_tag(void **state)
{
    (void)state;
    begin();
    tag(2, "GRUB", 5);
    tag(0, NULL, 0);                         /* the end tag: what follows is not read */
    tag(1, "after the end", 14);
    memcpy(buf, &len, 4);
    multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC, buf);
    assert_string_equal(boot_info.loader, "GRUB");
    assert_string_equal(boot_info.cmdline, "");

    begin();
    tag(1, "cut short", 10);
    uint32_t total = 8 + 8 + 4;              /* the total ends inside the command line's tag */
    memcpy(buf, &total, 4);
    multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC, buf);
    assert_string_equal(boot_info.handoff, "multiboot2");
    assert_string_equal(boot_info.cmdline, "");
}

static void wrong_magic_leaves_boot_info_untouched(void **state)
{
    (void)state;
    begin();
    tag(1, "x", 2);
    const void *info = finish();
    multiboot2_parse(0x2badb002u, info);      /* multiboot 1's magic */
    multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC, NULL);
    assert_null(boot_info.handoff);
    assert_string_equal(boot_info.cmdline, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_tag_is_read),
        cmocka_unit_test(efi32_and_short_tags),
        cmocka_unit_test(nothing_past_the_total_or_the_end_tag),
        cmocka_unit_test(wrong_magic_leaves_boot_info_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
