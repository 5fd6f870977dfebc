/* The multiboot2 information walker (kernel/bare/multiboot2.c) on
 * any bytes: malformed tags, sizes past the end, truncated information.
 *
 * The input is the information structure itself. The walker can only know
 * the length the structure declares (its first word), so a declared total
 * larger than the input is cut to the input's length: that is the one lie a
 * loader cannot tell, and everything inside it may be wrong. The copy is
 * exactly as long as the input, so ASan sees any read past it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "boot_info.h"
#include "multiboot2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || size > 1u << 20)
        return 0;
    uint8_t *info = malloc(size); /* 16-aligned, as the 8 the loader guarantees */
    if (!info)
        abort();
    memcpy(info, data, size);
    uint32_t total;
    memcpy(&total, info, 4);
    if (total > size) {
        total = (uint32_t)size;
        memcpy(info, &total, 4);
    }

    memset(&boot_info, 0, sizeof boot_info);
    multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC ^ 1, info); /* wrong magic: untouched */
    if (boot_info.handoff)
        abort();
    multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC, info);

    /* What the kernel reads afterwards must be well formed. */
    if (!boot_info.handoff || strcmp(boot_info.handoff, "multiboot2") != 0 ||
        boot_info.nmmap > BOOT_MMAP_MAX || boot_info.nmodules > BOOT_MODULES_MAX)
        abort();
    if (strnlen(boot_info.cmdline, sizeof boot_info.cmdline) == sizeof boot_info.cmdline ||
        strnlen(boot_info.loader, sizeof boot_info.loader) == sizeof boot_info.loader)
        abort();
    free(info);
    return 0;
}
