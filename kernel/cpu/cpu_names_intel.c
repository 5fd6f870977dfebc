/* Intel processor names by family/model.
 * Sources: Intel AP-485 "Intel Processor Identification and the CPUID
 * Instruction" (families 4, 5, 6 up to Pentium III, 15); Intel SDM Vol. 4,
 * Table 2-1 "CPUID Signature Values of DisplayFamily_DisplayModel"; Linux
 * arch/x86/include/asm/intel-family.h (model numbers of later cores);
 * the InstLatx64 dump collection (file names pair signatures with codenames).
 * A model not listed here prints as unknown: a wrong name is worse. */
#include "cpu.h"

struct model_name {
    uint8_t model;
    const char *name;
};

static const struct model_name family4[] = {
    { 0x0, "i486DX" },    { 0x1, "i486DX-50" }, { 0x2, "i486SX" },   { 0x3, "i486DX2" },
    { 0x4, "i486SL" },    { 0x5, "i486SX2" },   { 0x7, "i486DX2-WB" }, { 0x8, "i486DX4" },
    { 0x9, "i486DX4-WB" },
};

static const struct model_name family5[] = {
    { 0x0, "Pentium (P5 A-step)" },
    { 0x1, "Pentium (P5)" },
    { 0x2, "Pentium (P54C)" },
    { 0x3, "Pentium OverDrive for 486 (P24T)" },
    { 0x4, "Pentium MMX (P55C)" },
    { 0x5, "Pentium OverDrive for DX4 (P24CT)" },
    { 0x6, "Pentium OverDrive for 5V Pentium (P5T)" },
    { 0x7, "Pentium (P54CS)" },
    { 0x8, "Pentium MMX mobile (Tillamook)" },
    { 0x9, "Quark (Lakemont)" },
};

static const struct model_name family6[] = {
    { 0x01, "Pentium Pro" },
    { 0x03, "Pentium II (Klamath)" },
    { 0x05, "Pentium II (Deschutes)" },
    { 0x06, "Pentium II / Celeron (Mendocino)" },
    { 0x07, "Pentium III (Katmai)" },
    { 0x08, "Pentium III (Coppermine)" },
    { 0x09, "Pentium M (Banias)" },
    { 0x0a, "Pentium III Xeon (Cascades)" },
    { 0x0b, "Pentium III (Tualatin)" },
    { 0x0d, "Pentium M (Dothan)" },
    { 0x0e, "Core (Yonah)" },
    { 0x0f, "Core 2 (Merom/Conroe)" },
    { 0x15, "Pentium M (Tolapai)" },
    { 0x16, "Core 2 (Merom-L)" },
    { 0x17, "Core 2 (Penryn)" },
    { 0x1a, "Nehalem-EP" },
    { 0x1c, "Atom (Bonnell)" },
    { 0x1d, "Core 2 (Dunnington)" },
    { 0x1e, "Nehalem" },
    { 0x1f, "Nehalem (Auburndale/Havendale)" },
    { 0x25, "Westmere" },
    { 0x26, "Atom (Bonnell, Lincroft)" },
    { 0x27, "Atom (Saltwell, Penwell)" },
    { 0x2a, "Sandy Bridge" },
    { 0x2c, "Westmere-EP" },
    { 0x2d, "Sandy Bridge-EP" },
    { 0x2e, "Nehalem-EX" },
    { 0x2f, "Westmere-EX" },
    { 0x35, "Atom (Saltwell, Cloverview)" },
    { 0x36, "Atom (Saltwell, Cedarview)" },
    { 0x37, "Atom (Silvermont, Bay Trail)" },
    { 0x3a, "Ivy Bridge" },
    { 0x3c, "Haswell" },
    { 0x3d, "Broadwell" },
    { 0x3e, "Ivy Bridge-EP" },
    { 0x3f, "Haswell-EP" },
    { 0x45, "Haswell (ULT)" },
    { 0x46, "Haswell (GT3e)" },
    { 0x47, "Broadwell (GT3e)" },
    { 0x4a, "Atom (Silvermont, Merrifield)" },
    { 0x4c, "Atom (Airmont, Cherry Trail)" },
    { 0x4d, "Atom (Silvermont, Avoton)" },
    { 0x4e, "Skylake (mobile)" },
    { 0x4f, "Broadwell-EP" },
    /* 0x55: Skylake-SP, Cascade Lake, Cooper Lake by stepping (below) */
    { 0x56, "Broadwell-DE" },
    { 0x57, "Xeon Phi (Knights Landing)" },
    { 0x5a, "Atom (Silvermont, Anniedale)" },
    { 0x5c, "Atom (Goldmont, Apollo Lake)" },
    { 0x5e, "Skylake" },
    { 0x5f, "Atom (Goldmont, Denverton)" },
    { 0x66, "Cannon Lake" },
    { 0x6a, "Ice Lake-SP" },
    { 0x6c, "Ice Lake-D" },
    { 0x75, "Atom (Airmont, Lightning Mountain)" },
    { 0x7a, "Atom (Goldmont Plus, Gemini Lake)" },
    { 0x7d, "Ice Lake" },
    { 0x7e, "Ice Lake (mobile)" },
    { 0x85, "Xeon Phi (Knights Mill)" },
    { 0x86, "Atom (Tremont, Snow Ridge)" },
    { 0x8a, "Lakefield" },
    { 0x8c, "Tiger Lake (mobile)" },
    { 0x8d, "Tiger Lake" },
    { 0x8e, "Kaby Lake / Coffee Lake (mobile)" },
    { 0x8f, "Sapphire Rapids" },
    { 0x96, "Atom (Tremont, Elkhart Lake)" },
    { 0x97, "Alder Lake" },
    { 0x9a, "Alder Lake (mobile)" },
    { 0x9c, "Atom (Tremont, Jasper Lake)" },
    { 0x9d, "Ice Lake (NNPI)" },
    { 0x9e, "Kaby Lake / Coffee Lake" },
    { 0xa5, "Comet Lake" },
    { 0xa6, "Comet Lake (mobile)" },
    { 0xa7, "Rocket Lake" },
    { 0xaa, "Meteor Lake (mobile)" },
    { 0xac, "Meteor Lake" },
    { 0xad, "Granite Rapids" },
    { 0xae, "Granite Rapids-D" },
    { 0xaf, "Sierra Forest (Crestmont)" },
    { 0xb5, "Arrow Lake-U" },
    { 0xb6, "Grand Ridge (Crestmont)" },
    { 0xb7, "Raptor Lake" },
    { 0xba, "Raptor Lake (mobile)" },
    { 0xbd, "Lunar Lake" },
    { 0xbe, "Alder Lake-N (Gracemont)" },
    { 0xbf, "Raptor Lake-S" },
    { 0xc5, "Arrow Lake-H" },
    { 0xc6, "Arrow Lake" },
    { 0xcc, "Panther Lake" },
    { 0xcf, "Emerald Rapids" },
    { 0xd7, "Bartlett Lake" },
    { 0xdd, "Clearwater Forest (Darkmont)" },
};

static const struct model_name family15[] = {
    { 0x0, "NetBurst (Willamette)" },
    { 0x1, "NetBurst (Willamette)" },
    { 0x2, "NetBurst (Northwood)" },
    { 0x3, "NetBurst (Prescott)" },
    { 0x4, "NetBurst (Prescott)" },
    { 0x6, "NetBurst (Cedar Mill/Presler)" },
};

static const char *lookup(const struct model_name *t, unsigned n, unsigned model)
{
    for (unsigned i = 0; i < n; i++)
        if (t[i].model == model)
            return t[i].name;
    return NULL;
}

#define LOOKUP(t, m) lookup(t, sizeof t / sizeof t[0], m)

const char *cpu_name_intel(unsigned family, unsigned model, unsigned stepping, unsigned type)
{
    switch (family) {
    case 4:
        return LOOKUP(family4, model);
    case 5:
        /* Type 1 marks an OverDrive part (AP-485, processor type field). */
        if (type == 1 && (model == 1 || model == 2))
            return "Pentium OverDrive";
        if (type == 1 && model == 4)
            return "Pentium MMX OverDrive (P54CTB)";
        return LOOKUP(family5, model);
    case 6:
        if (model == 0x55) {
            /* Linux intel-family.h / X86_STEPPINGS in the kernel's users:
             * steppings 0-4 Skylake-SP, 5-7 Cascade Lake, 10-11 Cooper Lake. */
            if (stepping <= 4)
                return "Skylake-SP";
            if (stepping <= 7)
                return "Cascade Lake";
            if (stepping == 10 || stepping == 11)
                return "Cooper Lake";
            return NULL;
        }
        return LOOKUP(family6, model);
    case 15:
        return LOOKUP(family15, model);
    case 18:
        return (model == 0x01 || model == 0x03) ? "Nova Lake" : NULL;
    case 19:
        return model == 0x01 ? "Diamond Rapids" : NULL;
    }
    return NULL;
}
