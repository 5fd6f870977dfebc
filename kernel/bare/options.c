/* Bare metal's own options: the console, the keys after the run, ACPI,
 * long mode, the exit and the double-fault test; and the hosted runner's
 * names, so the same command line means the same here (noted, not
 * unknown). Their values live in `settings` (options/settings.h), as every
 * option's does.
 *
 * The order below is the help table's, reversed: the ck_options section
 * lists one file's entries last to first. */
#include "options/option.h"
#include "options.h"
#include "options/settings.h"

OPTION_BOOL_AT(overflow, &settings.overflow, "overflow", false,
               "with selftest: overflow a benchmark's stack on purpose; the run must end with the "
               "double fault reported (status 3)");
OPTION_ELSEWHERE(hostmem, "hostmem", "hosted runner only (bare metal takes memory from the multiboot2 map)");
OPTION_ELSEWHERE(module, "module", "hosted runner only (bare metal reads benchmark files from GRUB module2 lines)");

static const struct option_name exit_modes[] = {
    { "auto", EXIT_AUTO }, { "qemu", EXIT_QEMU }, { "halt", EXIT_HALT }, { "reboot", EXIT_REBOOT },
    { NULL, 0 },
};
OPTION_ENUM_AT(exit, &settings.exit, "exit", EXIT_AUTO, exit_modes,
               "at the end: auto (QEMU debug-exit under QEMU, else halt), qemu, halt, reboot");

static const struct option_name mode_names[] = {
    { "auto", MODE_AUTO }, { "32", MODE_32 }, { "64", MODE_64 }, { NULL, 0 },
};
OPTION_ENUM_AT(mode, &settings.mode, "mode", MODE_AUTO, mode_names,
               "auto: 64 (long mode, the 32-bit core in compatibility mode) where CPUID says LM, "
               "else 32; 32 or 64 forces it (64 without LM: noted, 32 used)");
static const struct option_name page_names[] = {
    { "auto", PAGES_AUTO }, { "4k", PAGES_4K }, { "2m", PAGES_2M }, { "1g", PAGES_1G }, { NULL, 0 },
};
OPTION_ENUM_AT(pages, &settings.pages, "pages", PAGES_AUTO, page_names,
               "long mode's identity map: auto (1g where CPUID says Page1GB, else 2m), 1g, 2m, or 4k "
               "(the mem/ region in 4 KiB pages, to see the TLB's cost)");

static const struct option_name acpi_from[] = {
    { "auto", ACPI_FROM_AUTO }, { "tags", ACPI_FROM_TAGS }, { "scan", ACPI_FROM_SCAN }, { NULL, 0 },
};
OPTION_ENUM_AT(acpi, &settings.acpi, "acpi", ACPI_FROM_AUTO, acpi_from,
               "where the ACPI RSDP is taken from: auto (the multiboot2 tag, else the BIOS area), tags "
               "(the tag only) or scan (the EBDA and 0xE0000-0xFFFFF only, ACPI 6.5 section 5.2.5.1)");

static const struct option_name keys_names[] = {
    { "auto", KEYS_AUTO }, { "none", 0 }, { NULL, 0 },
};
OPTION_UINT_AT(keys, &settings.keys, "keys", KEYS_AUTO, 0, 3600, keys_names,
               "after the run, page the screen with PgUp/PgDn until this many seconds pass "
               "without a key (auto: 0 under QEMU, 60 elsewhere; 0 or none: no wait)");

static const struct option_name serial_ports[] = {
    { "com1", 0x3f8 }, { "com2", 0x2f8 }, { "com3", 0x3e8 }, { "com4", 0x2e8 }, { "none", 0 },
    { NULL, 0 },
};
OPTION_UINT_AT(serial, &settings.serial, "serial", 0x3f8, 0x100, 0xfff8, serial_ports,
               "serial port: com1..com4, an I/O address, or none");
static const struct option_name bauds[] = {
    { "115200", 115200 }, { "57600", 57600 }, { "38400", 38400 }, { "19200", 19200 },
    { "9600", 9600 }, { "4800", 4800 }, { "2400", 2400 }, { "1200", 1200 }, { NULL, 0 },
};
OPTION_ENUM_AT(baud, &settings.baud, "baud", 115200, bauds, "serial speed (8N1)");
static const struct option_name screen_modes[] = {
    { "auto", SCREEN_AUTO }, { "on", SCREEN_ON }, { "off", SCREEN_OFF }, { "all", SCREEN_ALL },
    { "log", SCREEN_LOG }, { NULL, 0 },
};
OPTION_ENUM_AT(screen, &settings.screen, "screen", SCREEN_AUTO, screen_modes,
               "screen: auto (VGA text on BIOS, framebuffer on UEFI), on (VGA text also on UEFI), off; "
               "the layout (header, progress, table, summary), or log (the readable lines scrolling), "
               "all (also JSON lines)");
