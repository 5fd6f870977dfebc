/* What the firmware's SMBIOS tables say about the machine (filled by
 * kernel/bare/firmware/smbios.c, written into the platform record):
 * the BIOS (type 0), the system (type 1), the board (type 2) and the memory
 * devices (type 17). Strings are copied, cut to their buffers, and hold
 * only printable ASCII. SMBIOS spec DSP0134 (version 3.x), §7. */
#ifndef CK_PLATFORM_SMBIOS_H
#define CK_PLATFORM_SMBIOS_H
#include <stdbool.h>
#include <stdint.h>

#define SMBIOS_STR 64
#define SMBIOS_MEMDEV_MAX 16

struct smbios_memdev {
    char locator[SMBIOS_STR];      /* "DIMM 0" (device locator) */
    char bank[SMBIOS_STR];         /* bank locator, "" when none */
    bool size_known;               /* false: "unknown" (0xFFFF) */
    bool installed;                /* false: an empty slot (size 0) */
    uint64_t size_kib;
    uint32_t speed_mts;            /* maximum speed, MT/s (0: unknown) */
    uint32_t configured_mts;       /* configured speed, MT/s (0: unknown or not given) */
    uint8_t type;                  /* memory type (§7.18.2: 0x1A DDR4, 0x22 DDR5 ...) */
};

struct platform_smbios {
    bool found;                    /* an entry point with a valid checksum */
    const char *why;               /* when not found: why */
    const char *source;            /* "multiboot2 tag", "scan of 0xF0000-0xFFFFF" */
    uint8_t major, minor;          /* the entry point's SMBIOS version */
    uint64_t table_addr;
    uint32_t table_len;
    unsigned structures;           /* structures walked */
    const char *problem;           /* a malformed table: where the walk stopped (NULL: none) */
    bool have_bios, have_system, have_board;
    char bios_vendor[SMBIOS_STR], bios_version[SMBIOS_STR], bios_date[SMBIOS_STR];
    char sys_manufacturer[SMBIOS_STR], sys_product[SMBIOS_STR], sys_version[SMBIOS_STR];
    char board_manufacturer[SMBIOS_STR], board_product[SMBIOS_STR], board_version[SMBIOS_STR];
    unsigned nmem;                 /* memory devices kept (at most SMBIOS_MEMDEV_MAX) */
    unsigned mem_total;            /* type 17 structures seen */
    struct smbios_memdev mem[SMBIOS_MEMDEV_MAX];
};

#endif
