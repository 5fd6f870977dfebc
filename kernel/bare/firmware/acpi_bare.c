/* ACPI on this PC: where the RSDP is (the loader's copy in multiboot2 tag
 * 15 or 14, else -- or, with acpi=scan, only -- the BIOS search of ACPI
 * spec 6.5 §5.2.5.1, acpi_rsdp_search), and physical memory as the parser
 * reads it: paging is off (or long mode's identity map), so an address
 * below 4 GiB is its own pointer; above it nothing can be read. Found once,
 * on first use. */
#include "acpi_bare.h"
#include "lib/fmt.h"
#include "bare/options.h"
#include "options/settings.h"
#include "bare/boot_info.h"

static const void *identity_map(void *ctx, uint64_t phys, uint32_t len)
{
    (void)ctx;
    if (phys == 0 || phys >= 0x100000000ull || len > 0x100000000ull - phys)
        return NULL;
    return (const void *)(uintptr_t)phys;
}

static const struct acpi_mem bare_mem = { identity_map, 0 };
static struct acpi_info info;
static struct madt_info madt;
static bool looked;

static void from_tag(void)
{
    char where[48];
    ksnprintf(where, sizeof where, "multiboot2 tag %u", boot_info.acpi_tag);
    acpi_parse(&bare_mem, boot_info.acpi_rsdp, boot_info.acpi_rsdp_len, where, &info);
}

/* The search of §5.2.5.1 (acpi_rsdp_search); false (with a problem noted)
 * when it finds none. */
static bool from_bios_area(void)
{
    char where[48];
    uint32_t at = (uint32_t)acpi_rsdp_search(&bare_mem);
    if (!at) {
        acpi_problem(&info, "no RSDP in the EBDA or at 0xE0000-0xFFFFF%s; ACPI not used",
                     boot_info.efi ? " (a UEFI firmware need not put one there)" : "");
        return false;
    }
    ksnprintf(where, sizeof where, "BIOS area 0x%x", (unsigned)at);
    acpi_parse(&bare_mem, identity_map(0, at, 0x100000 - at), 0x100000 - at, where, &info);
    return true;
}

/* acpi=auto: the loader's tag, else the BIOS area (not under UEFI, which
 * promises no legacy area); tags: the tag only; scan: the BIOS area only,
 * tags ignored (the search is otherwise never run under GRUB). */
static bool found_rsdp(void)
{
    if (settings.acpi == ACPI_FROM_SCAN)
        return from_bios_area();
    if (boot_info.acpi_tag) {
        from_tag();
        return true;
    }
    if (settings.acpi == ACPI_FROM_TAGS) {
        acpi_problem(&info, "acpi=tags: the loader passed no multiboot2 ACPI tag (14 or 15); ACPI not used");
        return false;
    }
    if (boot_info.efi) {
        acpi_problem(&info, "UEFI boot without a multiboot2 ACPI tag: no BIOS area to search; ACPI not used");
        return false;
    }
    return from_bios_area();
}

static void look(void)
{
    looked = true;
    if (!found_rsdp())
        return;
    const uint8_t *m = acpi_table_find(&info, &bare_mem, "APIC");
    if (m)
        madt_parse(m, &madt, &info);
}

const struct acpi_info *acpi_get(void)
{
    if (!looked)
        look();
    return &info;
}

const uint8_t *acpi_find(const char sig[4])
{
    return acpi_table_find(acpi_get(), &bare_mem, sig);
}

const char *acpi_oem_id(void)
{
    return acpi_get()->found ? info.oem_id : 0;
}

const struct madt_info *acpi_madt(void)
{
    acpi_get();
    return &madt;
}
