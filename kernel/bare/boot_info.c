/* The one boot_info, and what both multiboot readers (multiboot2.c, the
 * GRUB handoff; multiboot1.c, QEMU's -kernel) do alike. */
#include "boot_info.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

struct boot_info boot_info;

void boot_copy_string(char *dst, size_t size, const uint8_t *src, uint32_t len)
{
    size_t n = kstrnlen((const char *)src, len);
    n = n < size - 1 ? n : size - 1;
    kmemcpy(dst, src, n);
    dst[n] = '\0';
}

void boot_add_module(uint32_t start, uint32_t end, const char *origin, const char *line)
{
    if (end < start || boot_info.nmodules == BOOT_MODULES_MAX) {
        boot_info.modules_dropped++;
        return;
    }
    unsigned i = boot_info.nmodules++;
    ksnprintf(boot_info.module_names[i], sizeof boot_info.module_names[i],
              line[0] ? "%s %u (%s)" : "%s %u", origin, i + 1, line);
    boot_info.modules[i] = (struct platform_module){ (const uint8_t *)(uintptr_t)start,
                                                     end - start, boot_info.module_names[i] };
}
