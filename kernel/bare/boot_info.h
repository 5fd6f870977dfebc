/* What the boot loader (or the hosted runner) told us about the machine. */
#ifndef CK_BOOT_INFO_H
#define CK_BOOT_INFO_H
#include <stdbool.h>
#include <stdint.h>

#define MEM_USABLE 1 /* multiboot2 memory type 1: available RAM */

#include "platform/platform.h" /* struct platform_mem_range: one map entry */

#define BOOT_MMAP_MAX 48
#define BOOT_CMDLINE_MAX 1024

/* GRUB module2 lines (multiboot2 tag type 3): benchmark files (kernel/load/). */
#define BOOT_MODULES_MAX 16

struct boot_info {
    const char *handoff;        /* the valid handoff we came through: "multiboot2" (GRUB),
                                 * "multiboot" (QEMU -kernel); NULL: none */
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
    struct platform_module modules[BOOT_MODULES_MAX];
    char module_names[BOOT_MODULES_MAX][80];  /* origin: "grub module N (its command line)" */
    unsigned nmodules;
    unsigned modules_dropped;   /* more than BOOT_MODULES_MAX, or start > end */
    /* The SMBIOS entry point from the multiboot2 SMBIOS tag (type 13), copied
     * (an entry point is at most 0x1F bytes); smbios_len 0: no tag. */
    uint64_t efi_systab;        /* the EFI system table (tags 11/12), 0: none */
    bool efi64;                 /* tag 12: a 64-bit firmware's table */
    uint8_t smbios[32];
    uint32_t smbios_len;
    /* The RSDP GRUB copied into multiboot2 tag 14 (ACPI 1.0) or 15 (2.0+),
     * tag 15 preferred; acpi_tag 0 when neither came (then the BIOS area
     * is searched). */
    uint8_t acpi_rsdp[40];
    uint32_t acpi_rsdp_len;
    uint8_t acpi_tag;
};

extern struct boot_info boot_info;

#include <stddef.h>
/* A loader's string, never read past len, always terminated in dst. */
void boot_copy_string(char *dst, size_t size, const uint8_t *src, uint32_t len);
/* A module [start, end) the loader placed; origin names the loader's kind
 * ("grub module", "multiboot module"), line is its command line. */
void boot_add_module(uint32_t start, uint32_t end, const char *origin, const char *line);

#endif
