/* Reads the multiboot2 information GRUB leaves for us. */
#include "boot_info.h"
#include "lib/kstring.h"
#include "multiboot2.h"

struct boot_info boot_info;

enum {
    TAG_END = 0, TAG_CMDLINE = 1, TAG_LOADER = 2, TAG_BASIC_MEMINFO = 4, TAG_MMAP = 6,
    TAG_FRAMEBUFFER = 8, TAG_EFI32 = 11, TAG_EFI64 = 12,
};

struct tag { uint32_t type, size; };

void multiboot2_parse(uint32_t magic, const void *info)
{
    if (magic != MULTIBOOT2_BOOTLOADER_MAGIC || !info)
        return;
    boot_info.multiboot = true;
    const uint8_t *base = info;
    uint32_t total = *(const uint32_t *)base;
    uint32_t off = 8;
    while (off + sizeof(struct tag) <= total) {
        const struct tag *t = (const void *)(base + off);
        const uint8_t *body = (const uint8_t *)t + 8;
        if (t->type == TAG_END || t->size < 8)
            break;
        switch (t->type) {
        case TAG_CMDLINE:
            kstrlcpy(boot_info.cmdline, (const char *)body, sizeof boot_info.cmdline);
            break;
        case TAG_LOADER:
            kstrlcpy(boot_info.loader, (const char *)body, sizeof boot_info.loader);
            break;
        case TAG_BASIC_MEMINFO:
            boot_info.mem_lower_kb = ((const uint32_t *)body)[0];
            boot_info.mem_upper_kb = ((const uint32_t *)body)[1];
            break;
        case TAG_MMAP: {
            uint32_t entry_size = ((const uint32_t *)body)[0];
            if (entry_size < 24)
                break;
            for (uint32_t e = 16; e + 24 <= t->size && boot_info.nmmap < BOOT_MMAP_MAX;
                 e += entry_size) {
                const uint8_t *p = (const uint8_t *)t + e;
                struct platform_mem_range *r = &boot_info.mmap[boot_info.nmmap++];
                kmemcpy(&r->base, p, 8);
                kmemcpy(&r->length, p + 8, 8);
                kmemcpy(&r->type, p + 16, 4);
            }
            break;
        }
        case TAG_FRAMEBUFFER:
            kmemcpy(&boot_info.fb.addr, body, 8);
            kmemcpy(&boot_info.fb.pitch, body + 8, 4);
            kmemcpy(&boot_info.fb.width, body + 12, 4);
            kmemcpy(&boot_info.fb.height, body + 16, 4);
            boot_info.fb.bpp = body[20];
            boot_info.fb.type = body[21];
            if (boot_info.fb.type == 1 && t->size >= 8 + 30)
                kmemcpy(boot_info.fb.color, body + 24, 6);
            boot_info.fb.present = true;
            break;
        case TAG_EFI32:
        case TAG_EFI64:
            boot_info.efi = true;
            break;
        }
        off += (t->size + 7) & ~7u;
    }
}
