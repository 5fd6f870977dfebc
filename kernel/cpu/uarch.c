#include "uarch.h"

const char *uarch_name(enum uarch u)
{
    static const char *const names[UARCH_COUNT] = {
        "none", "486", "P5", "P6", "Golden Cove", "Zen",
    };
    return u < UARCH_COUNT ? names[u] : "none";
}

enum uarch uarch_of(const struct cpu_info *c)
{
    if (c->vendor == VENDOR_INTEL) {
        if (c->family == 4)
            return UARCH_486;
        if (c->family == 5)
            return UARCH_P5;
        if (c->family == 6 && c->model >= 1 && c->model <= 0xb)
            return UARCH_P6;
        if (c->family == 6) {
            switch (c->model) {
            case 0x97: case 0x9a:             /* Alder Lake */
            case 0xb7: case 0xba: case 0xbf:  /* Raptor Lake */
            case 0x8f: case 0xcf:             /* Sapphire / Emerald Rapids */
                return UARCH_MODERN_INTEL;
            }
        }
    }
    if ((c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON) &&
        (c->family == 0x17 || c->family == 0x18 || c->family == 0x19 || c->family == 0x1a))
        return UARCH_ZEN;
    /* A 486 without CPUID: the pre-CPUID probe names it; no vendor string. */
    if (c->generation == CPU_GEN_486_NO_CPUID)
        return UARCH_486;
    return UARCH_NONE;
}
