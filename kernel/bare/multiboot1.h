#ifndef CK_BARE_MULTIBOOT1_H
#define CK_BARE_MULTIBOOT1_H
#include <stdint.h>

#define MULTIBOOT1_BOOTLOADER_MAGIC 0x2BADB002u

/* Fills boot_info from a Multiboot (version 1) information structure, as
 * QEMU's -kernel leaves it (ignored when magic is wrong). */
void multiboot1_parse(uint32_t magic, const void *info);

#endif
