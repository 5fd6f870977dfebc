/* What the boot loader (or the hosted runner) told us about the machine. */
#ifndef CK_BOOT_INFO_H
#define CK_BOOT_INFO_H
#include <stdbool.h>
#include <stdint.h>

#define MEM_USABLE 1 /* multiboot2 memory type 1: available RAM */

#include "platform/platform.h" /* struct platform_mem_range: one map entry */

#define BOOT_MMAP_MAX 48
#define BOOT_CMDLINE_MAX 1024

struct boot_info {
    bool multiboot;             /* entered through a valid multiboot2 handoff */
    bool efi;                   /* firmware was UEFI (EFI system table tag seen) */
    char cmdline[BOOT_CMDLINE_MAX]; /* loader's command line + QEMU fw_cfg extra */
    char loader[64];
    uint32_t mem_lower_kb, mem_upper_kb;
    struct platform_mem_range mmap[BOOT_MMAP_MAX];
    unsigned nmmap;
    struct {
        uint64_t addr;
        uint32_t pitch, width, height;
        uint8_t bpp, type;      /* type: 0 indexed, 1 RGB, 2 EGA text */
        uint8_t color[6];       /* RGB: red, green, blue field position and size */
        bool present;
    } fb;
    /* The RSDP GRUB copied into multiboot2 tag 14 (ACPI 1.0) or 15 (2.0+),
     * tag 15 preferred; acpi_tag 0 when neither came (then the BIOS area
     * is searched). */
    uint8_t acpi_rsdp[40];
    uint32_t acpi_rsdp_len;
    uint8_t acpi_tag;
};

extern struct boot_info boot_info;

#endif
