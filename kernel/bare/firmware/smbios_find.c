/* Where the SMBIOS entry point is on a PC (DSP0134 §5.2): the copy GRUB
 * hands over in the multiboot2 SMBIOS tag; else, on UEFI, the EFI
 * configuration table entry SMBIOS3_TABLE_GUID or SMBIOS_TABLE_GUID (UEFI
 * spec 2.10 §4.6, "EFI Configuration Table"; the system table layout §4.3);
 * else the paragraph scan of 0xF0000-0xFFFFF (§5.2.1, §5.2.2), preferring
 * the 64-bit `_SM3_` entry point over `_SM_` when both exist. The 32-bit
 * core reads physical memory directly (flat segments, identity-mapped in
 * long mode), so a table above 4 GiB is out of reach and said so. */
#include "smbios.h"
#include "bare/boot_info.h"

#define FSEG_BASE 0xF0000u
#define FSEG_END 0x100000u

static const uint8_t *phys(uint64_t addr) { return (const uint8_t *)(uintptr_t)addr; }

static bool scan(struct platform_smbios *out)
{
    const uint8_t *best = NULL;
    for (uint32_t a = FSEG_BASE; a < FSEG_END; a += 16) {
        size_t avail = FSEG_END - a;
        if (!smbios_entry_len(phys(a), avail))
            continue;
        struct platform_smbios probe = { 0 };
        if (smbios_entry_parse(phys(a), avail, &probe))
            continue;
        if (!best || phys(a)[3] == '3') /* "_SM3_" wins over "_SM_" */
            best = phys(a);
        if (phys(a)[3] == '3')
            break;
    }
    if (!best)
        return false;
    out->source = "scan of 0xF0000-0xFFFFF";
    return !smbios_entry_parse(best, FSEG_END - (uint32_t)(uintptr_t)best, out);
}

/* GUIDs as bytes in memory (Data1-3 little-endian). */
static const uint8_t guid_smbios3[16] = { 0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
                                          0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };
static const uint8_t guid_smbios[16] = { 0x31, 0x2d, 0x9d, 0xeb, 0x88, 0x2d, 0xd3, 0x11,
                                         0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d };

static bool same_guid(const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static uint64_t word(const uint8_t *p, bool wide)
{
    uint64_t v = 0;
    for (int i = (wide ? 8 : 4) - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The entry point named by the EFI configuration table (3.0 first). */
static bool efi(struct platform_smbios *out)
{
    uint64_t st = boot_info.efi_systab;
    bool w = boot_info.efi64;
    if (!st || st >= 0x100000000ull || word(phys(st), true) != 0x5453595320494249ull) /* "IBI SYST" */
        return false;
    uint64_t n = word(phys(st) + (w ? 104 : 64), w), table = word(phys(st) + (w ? 112 : 68), w);
    size_t each = w ? 24 : 20;
    if (!table || table >= 0x100000000ull || n > 256)
        return false;
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t i = 0; i < n; i++) {
            const uint8_t *e = phys(table + i * each);
            uint64_t ep = word(e + 16, w);
            if (!same_guid(e, pass ? guid_smbios : guid_smbios3) || !ep || ep >= 0xFFFFFFE0ull)
                continue;
            out->source = pass ? "EFI configuration table (SMBIOS_TABLE_GUID)"
                               : "EFI configuration table (SMBIOS3_TABLE_GUID)";
            if (!smbios_entry_parse(phys(ep), 0x20, out))
                return true;
        }
    return false;
}

static const char *entry_point(struct platform_smbios *out)
{
    const char *why = "no multiboot2 SMBIOS tag, no EFI configuration table entry and no _SM_/_SM3_ "
                      "anchor in 0xF0000-0xFFFFF";
    if (boot_info.smbios_len) {
        out->source = "multiboot2 SMBIOS tag";
        const char *bad = smbios_entry_parse(boot_info.smbios, boot_info.smbios_len, out);
        if (!bad)
            return NULL;
        why = bad; /* the tag's copy is broken: the firmware's own may not be */
    }
    if (efi(out) || scan(out))
        return NULL;
    return why;
}

void smbios_find(struct platform_smbios *out)
{
    *out = (struct platform_smbios){ 0 };
    out->why = entry_point(out);
    if (out->why) {
        out->source = NULL;
        return;
    }
    if (out->table_addr + out->table_len > 0x100000000ull) {
        out->why = "the structure table lies above 4 GiB, out of the 32-bit core's reach";
        return;
    }
    out->found = true;
    smbios_table_parse(phys(out->table_addr), out->table_len, out);
}
