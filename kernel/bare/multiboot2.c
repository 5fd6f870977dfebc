/* Reads the multiboot2 information GRUB leaves for us. */
#include "boot_info.h"
#include "lib/kstring.h"
#include "multiboot2.h"

enum {
    TAG_END = 0, TAG_CMDLINE = 1, TAG_LOADER = 2, TAG_MODULE = 3, TAG_BASIC_MEMINFO = 4, TAG_MMAP = 6,
    TAG_FRAMEBUFFER = 8, TAG_EFI32 = 11, TAG_EFI64 = 12, TAG_SMBIOS = 13, TAG_ACPI_OLD = 14, TAG_ACPI_NEW = 15,
};

struct tag { uint32_t type, size; };

/* A module tag (Multiboot2 specification, 3.6.6 "Modules"): u32 mod_start,
 * u32 mod_end (physical, paging is off: also the address), then the
 * module's command line. Its bytes are checked later (kernel/load/). */
static void add_module(const struct tag *t, const uint8_t *body)
{
    uint32_t start, end;
    if (t->size < 8 + 8)
        return;
    kmemcpy(&start, body, 4);
    kmemcpy(&end, body + 4, 4);
    char line[64];
    boot_copy_string(line, sizeof line, body + 8, t->size - 16);
    boot_add_module(start, end, "grub module", line);
}

/* Tags 14 and 15 hold a copy of the RSDP (Multiboot2 specification 2.0, "ACPI old RSDP" and "ACPI new RSDP");
 * the new one wins over the old whatever their order. */
static void save_rsdp(uint32_t type, const uint8_t *body, uint32_t len)
{
    if (type < boot_info.acpi_tag)
        return;
    len = len < sizeof boot_info.acpi_rsdp ? len : sizeof boot_info.acpi_rsdp;
    kmemcpy(boot_info.acpi_rsdp, body, len);
    boot_info.acpi_rsdp_len = len;
    boot_info.acpi_tag = (uint8_t)type;
}

/* A memory map tag (Multiboot2 specification, 3.6.8 "Memory map"): u32 entry_size,
 * u32 entry_version, then entries of entry_size bytes: u64 base, u64 length, u32 type. */
static void save_mmap(const struct tag *t, const uint8_t *body)
{
    if (t->size < 16)
        return;
    uint32_t entry_size = ((const uint32_t *)body)[0];
    if (entry_size < 24 || entry_size > t->size)
        return;
    for (uint32_t e = 16; e < t->size && t->size - e >= 24 && boot_info.nmmap < BOOT_MMAP_MAX; e += entry_size) {
        const uint8_t *p = (const uint8_t *)t + e;
        struct platform_mem_range *r = &boot_info.mmap[boot_info.nmmap++];
        kmemcpy(&r->base, p, 8);
        kmemcpy(&r->length, p + 8, 8);
        kmemcpy(&r->type, p + 16, 4);
    }
}

/* The framebuffer tag (3.6.12 "Framebuffer info"): address, pitch, width, height, bpp, type,
 * and for an RGB framebuffer (type 1) the colour fields' positions and sizes. */
static void save_framebuffer(const struct tag *t, const uint8_t *body)
{
    if (t->size < 8 + 22) /* the fields read below */
        return;
    kmemcpy(&boot_info.fb.addr, body, 8);
    kmemcpy(&boot_info.fb.pitch, body + 8, 4);
    kmemcpy(&boot_info.fb.width, body + 12, 4);
    kmemcpy(&boot_info.fb.height, body + 16, 4);
    boot_info.fb.bpp = body[20];
    boot_info.fb.type = body[21];
    if (boot_info.fb.type == 1 && t->size >= 8 + 30)
        kmemcpy(boot_info.fb.color, body + 24, 6);
    boot_info.fb.present = true;
}

/* EFI 32-bit and 64-bit system table pointers (3.6.13, 3.6.14). */
static void save_efi(const struct tag *t, const uint8_t *body)
{
    boot_info.efi = true;
    if (t->size >= (t->type == TAG_EFI64 ? 16u : 12u)) { /* the system table's address */
        boot_info.efi64 = t->type == TAG_EFI64;
        kmemcpy(&boot_info.efi_systab, body, boot_info.efi64 ? 8 : 4);
    }
}

/* SMBIOS tables (3.6.15): major, minor, 6 reserved bytes, then the entry point. */
static void save_smbios(const struct tag *t, const uint8_t *body)
{
    if (t->size > 16) {
        uint32_t n = t->size - 16;
        boot_info.smbios_len = n > sizeof boot_info.smbios ? sizeof boot_info.smbios : n;
        kmemcpy(boot_info.smbios, body + 8, boot_info.smbios_len);
    }
}

/* One tag, already checked to lie inside the information's declared total. */
static void parse_tag(const struct tag *t, const uint8_t *body)
{
    switch (t->type) {
    case TAG_CMDLINE:
        boot_copy_string(boot_info.cmdline, sizeof boot_info.cmdline, body, t->size - 8);
        break;
    case TAG_MODULE:
        add_module(t, body);
        break;
    case TAG_LOADER:
        boot_copy_string(boot_info.loader, sizeof boot_info.loader, body, t->size - 8);
        break;
    case TAG_BASIC_MEMINFO:
        if (t->size < 8 + 8)
            break;
        boot_info.mem_lower_kb = ((const uint32_t *)body)[0];
        boot_info.mem_upper_kb = ((const uint32_t *)body)[1];
        break;
    case TAG_MMAP:
        save_mmap(t, body);
        break;
    case TAG_FRAMEBUFFER:
        save_framebuffer(t, body);
        break;
    case TAG_ACPI_OLD:
    case TAG_ACPI_NEW:
        save_rsdp(t->type, body, t->size - 8);
        break;
    case TAG_EFI32:
    case TAG_EFI64:
        save_efi(t, body);
        break;
    case TAG_SMBIOS:
        save_smbios(t, body);
        break;
    }
}

void multiboot2_parse(uint32_t magic, const void *info)
{
    if (magic != MULTIBOOT2_BOOTLOADER_MAGIC || !info)
        return;
    boot_info.handoff = "multiboot2";
    const uint8_t *base = info;
    uint32_t total = *(const uint32_t *)base;
    uint32_t off = 8;
    while (off + sizeof(struct tag) <= total) {
        const struct tag *t = (const void *)(base + off);
        if (t->type == TAG_END || t->size < 8 || t->size > total - off)
            break; /* no tag reaches past the declared total */
        parse_tag(t, (const uint8_t *)t + 8);
        off += (t->size + 7) & ~7u;
    }
}
