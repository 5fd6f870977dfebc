/* The name line: dispatch by vendor, and the names of the smaller x86 makers.
 * Sources: Cyrix 6x86/6x86MX/MediaGX data books (CPUID signatures); Centaur
 * WinChip and VIA C3/C7/Nano data sheets and the InstLatx64 dump collection
 * (CentaurHauls files: WinChip C6 0x54x, WinChip 2 0x58x, C3 Samuel 0x66x, Ezra
 * 0x67x/0x68x, Nehemiah 0x69x, C7 Esther 0x6Ax/0x6Dx, Nano Isaiah 0x6Fx,
 * Zhaoxin 0x7Bx); Transmeta Crusoe/Efficeon data books; NexGen Nx586, UMC
 * U5S/U5D, Rise mP6, SiS 55x and NSC Geode signatures as listed by sandpile.org
 * ("x86 CPUID" pages). Hygon: Linux arch/x86/kernel/cpu/hygon.c (family 18h). */
#include "cpu.h"
#include "lib/kstring.h"

struct other_name {
    uint8_t vendor, family, model;
    const char *name;
};

static const struct other_name others[] = {
    { VENDOR_CYRIX, 4, 0x4, "MediaGX" },
    { VENDOR_CYRIX, 4, 0x9, "5x86" },
    { VENDOR_CYRIX, 5, 0x2, "6x86 (M1)" },
    { VENDOR_CYRIX, 5, 0x4, "MediaGX MMX (GXm)" },
    { VENDOR_CYRIX, 6, 0x0, "6x86MX / MII" },
    { VENDOR_CYRIX, 6, 0x5, "Cyrix III (Joshua)" },
    { VENDOR_CENTAUR, 5, 0x4, "WinChip C6" },
    { VENDOR_CENTAUR, 5, 0x8, "WinChip 2" },
    { VENDOR_CENTAUR, 5, 0x9, "WinChip 3" },
    { VENDOR_CENTAUR, 6, 0x6, "C3 (Samuel)" },
    { VENDOR_CENTAUR, 6, 0x7, "C3 (Samuel 2/Ezra)" },
    { VENDOR_CENTAUR, 6, 0x8, "C3 (Ezra-T)" },
    { VENDOR_CENTAUR, 6, 0x9, "C3 (Nehemiah)" },
    { VENDOR_CENTAUR, 6, 0xa, "C7 (Esther)" },
    { VENDOR_CENTAUR, 6, 0xd, "C7-D (Esther)" },
    { VENDOR_CENTAUR, 6, 0xf, "Nano (Isaiah)" },
    { VENDOR_CENTAUR, 6, 0x47, "CNS" },
    { VENDOR_CENTAUR, 7, 0x3b, "Zhaoxin KX-6000 / KX-U6780 class" },
    { VENDOR_CENTAUR, 7, 0x5b, "Zhaoxin KX-40000 class" },
    { VENDOR_CENTAUR, 7, 0x6b, "Zhaoxin KX-7000 class" },
    { VENDOR_ZHAOXIN, 7, 0x3b, "Zhaoxin KX-6000 / KX-U6780 class" },
    { VENDOR_ZHAOXIN, 7, 0x5b, "Zhaoxin KX-40000 class" },
    { VENDOR_ZHAOXIN, 7, 0x6b, "Zhaoxin KX-7000 class" },
    { VENDOR_TRANSMETA, 5, 0x4, "Crusoe" },
    { VENDOR_NEXGEN, 5, 0x0, "Nx586" },
    { VENDOR_UMC, 4, 0x1, "U5D" },
    { VENDOR_UMC, 4, 0x2, "U5S" },
    { VENDOR_RISE, 5, 0x0, "mP6 (Kirin)" },
    { VENDOR_RISE, 5, 0x2, "mP6 (Lynx)" },
    { VENDOR_SIS, 5, 0x0, "SiS 55x" },
    { VENDOR_NSC, 5, 0x4, "Geode GX1" },
    { VENDOR_NSC, 5, 0x5, "Geode GX2" },
};

const char *cpu_name_other(enum cpu_vendor v, unsigned family, unsigned model)
{
    if (v == VENDOR_TRANSMETA && family == 0xf)
        return "Efficeon";
    if (v == VENDOR_HYGON && family == 0x18 && model <= 0x0f)
        return "Dhyana (Zen)";
    for (unsigned i = 0; i < sizeof others / sizeof others[0]; i++)
        if (others[i].vendor == v && others[i].family == family && others[i].model == model)
            return others[i].name;
    return NULL;
}

/* Appends the decimal value of v to s (no printf: decoding stays usable
 * before the report exists and in every test). */
static void append_uint(char *s, size_t size, unsigned v)
{
    char digits[12];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < (int)sizeof digits);
    size_t len = kstrlen(s);
    while (n > 0 && len + 1 < size)
        s[len++] = digits[--n];
    s[len] = 0;
}

static void append(char *s, size_t size, const char *t)
{
    size_t len = kstrlen(s);
    while (*t && len + 1 < size)
        s[len++] = *t++;
    s[len] = 0;
}

void cpu_decode_name(struct cpu_info *c)
{
    const char *name = NULL;
    c->name[0] = 0;
    if (c->generation == CPU_GEN_386) {
        kstrlcpy(c->name, "386-class (no CPUID)", sizeof c->name);
        return;
    }
    if (c->generation == CPU_GEN_486_NO_CPUID) {
        kstrlcpy(c->name, "486-class (no CPUID)", sizeof c->name);
        return;
    }
    switch (c->vendor) {
    case VENDOR_INTEL:
        name = cpu_name_intel(c->family, c->model, c->stepping, c->type);
        break;
    case VENDOR_AMD:
        name = cpu_name_amd(c->family, c->model);
        break;
    default:
        name = cpu_name_other(c->vendor, c->family, c->model);
        break;
    }
    if (name) {
        kstrlcpy(c->name, name, sizeof c->name);
        return;
    }
    append(c->name, sizeof c->name, "unknown (family ");
    append_uint(c->name, sizeof c->name, c->family);
    append(c->name, sizeof c->name, ", model ");
    append_uint(c->name, sizeof c->name, c->model);
    append(c->name, sizeof c->name, ")");
}
