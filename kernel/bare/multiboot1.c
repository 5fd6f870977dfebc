/* Reads the Multiboot (version 1) information a loader such as QEMU's
 * -kernel leaves: the same boot_info the GRUB handoff fills (multiboot2.c).
 * QEMU starts an ELF kernel this way without firmware disk boot or GRUB,
 * in about a quarter of the time (docs/running.md, "Direct boot").
 *
 * Layout: Multiboot Specification 0.6.96, §3.3 "Boot information format".
 * Every field is valid only when its flags bit is set; addresses are
 * physical, which with paging off are the pointers themselves. */
#include "boot_info.h"
#include "lib/kstring.h"
#include "multiboot1.h"

enum {
    MB1_MEM = 1u << 0, MB1_CMDLINE = 1u << 2, MB1_MODS = 1u << 3, MB1_MMAP = 1u << 6,
    MB1_LOADER_NAME = 1u << 9,
};

struct mb1_info {            /* the fields read here, at their offsets */
    uint32_t flags;          /* 0 */
    uint32_t mem_lower;      /* 4: KiB below 1 MiB */
    uint32_t mem_upper;      /* 8: KiB above 1 MiB */
    uint32_t boot_device;    /* 12 */
    uint32_t cmdline;        /* 16 */
    uint32_t mods_count;     /* 20 */
    uint32_t mods_addr;      /* 24 */
    uint32_t syms[4];        /* 28 */
    uint32_t mmap_length;    /* 44 */
    uint32_t mmap_addr;      /* 48 */
    uint32_t drives_length;  /* 52 */
    uint32_t drives_addr;    /* 56 */
    uint32_t config_table;   /* 60 */
    uint32_t boot_loader_name; /* 64 */
};

struct mb1_module { uint32_t start, end, string, reserved; };

static const uint8_t *at(uint32_t phys)
{
    return (const uint8_t *)(uintptr_t)phys;
}

/* A Multiboot 1 command line starts with the kernel's own file name (GRUB
 * Legacy and QEMU both put it there; GRUB 2's multiboot2 does not): the
 * options are the words after it. A first word that is an option itself
 * (key=value) is kept, for a loader that passes options alone. */
static void read_cmdline(uint32_t addr)
{
    char line[BOOT_CMDLINE_MAX];
    boot_copy_string(line, sizeof line, at(addr), sizeof line);
    const char *p = line;
    while (*p == ' ')
        p++;
    const char *word = p;
    while (*p && *p != ' ' && *p != '=')
        p++;
    if (*p == '=')
        p = word;
    while (*p == ' ')
        p++;
    kstrlcpy(boot_info.cmdline, p, sizeof boot_info.cmdline);
}

/* Entries of u32 size (not counting itself), u64 base, u64 length, u32
 * type; the next entry is size + 4 bytes on. */
static void read_mmap(uint32_t addr, uint32_t length)
{
    uint32_t off = 0;
    while (off + 24 <= length && boot_info.nmmap < BOOT_MMAP_MAX) {
        const uint8_t *e = at(addr + off);
        uint32_t size;
        kmemcpy(&size, e, 4);
        if (size < 20)
            break; /* a malformed entry: the rest cannot be found */
        struct platform_mem_range *r = &boot_info.mmap[boot_info.nmmap++];
        kmemcpy(&r->base, e + 4, 8);
        kmemcpy(&r->length, e + 12, 8);
        kmemcpy(&r->type, e + 20, 4);
        off += size + 4;
    }
}

static void read_modules(uint32_t addr, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        if (boot_info.nmodules == BOOT_MODULES_MAX) {
            boot_info.modules_dropped += count - i;
            return;
        }
        struct mb1_module m;
        kmemcpy(&m, at(addr + i * sizeof m), sizeof m);
        char line[64] = "";
        if (m.string)
            boot_copy_string(line, sizeof line, at(m.string), sizeof line);
        boot_add_module(m.start, m.end, "multiboot module", line);
    }
}

void multiboot1_parse(uint32_t magic, const void *info)
{
    if (magic != MULTIBOOT1_BOOTLOADER_MAGIC || !info)
        return;
    struct mb1_info mb;
    kmemcpy(&mb, info, sizeof mb);
    boot_info.handoff = "multiboot";
    if (mb.flags & MB1_MEM) {
        boot_info.mem_lower_kb = mb.mem_lower;
        boot_info.mem_upper_kb = mb.mem_upper;
    }
    if ((mb.flags & MB1_CMDLINE) && mb.cmdline)
        read_cmdline(mb.cmdline);
    if ((mb.flags & MB1_LOADER_NAME) && mb.boot_loader_name)
        boot_copy_string(boot_info.loader, sizeof boot_info.loader, at(mb.boot_loader_name),
                         sizeof boot_info.loader);
    if ((mb.flags & MB1_MMAP) && mb.mmap_addr)
        read_mmap(mb.mmap_addr, mb.mmap_length);
    if ((mb.flags & MB1_MODS) && mb.mods_addr)
        read_modules(mb.mods_addr, mb.mods_count);
}
