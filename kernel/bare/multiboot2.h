#ifndef CK_BARE_MULTIBOOT2_H
#define CK_BARE_MULTIBOOT2_H
#include <stdint.h>

#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289u

/* Fills boot_info from the information structure (ignored when magic is wrong). */
void multiboot2_parse(uint32_t magic, const void *info);

#endif
