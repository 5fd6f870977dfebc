/* AMD (and Hygon) processor names by family/model.
 * Sources: AMD Processor Recognition Application Note (pub. 20734) for
 * families 4-6 (Am486, Am5x86, K5, K6, K7); AMD BKDGs / PPRs for families
 * 0Fh-1Ah; Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd/init_amd_zen*: the
 * model ranges of Zen 1 to Zen 5); the InstLatx64 dump collection.
 * Anything not listed prints as unknown. */
#include "cpu.h"

struct range_name {
    uint8_t first, last;
    const char *name;
};

static const struct range_name family4[] = {
    { 0x3, 0x3, "Am486DX2" }, { 0x7, 0x7, "Am486DX2-WB" }, { 0x8, 0x8, "Am486DX4" },
    { 0x9, 0x9, "Am486DX4-WB" }, { 0xe, 0xe, "Am5x86" },   { 0xf, 0xf, "Am5x86-WB" },
};

static const struct range_name family5[] = {
    { 0x0, 0x3, "K5" },
    { 0x6, 0x7, "K6" },
    { 0x8, 0x8, "K6-2" },
    { 0x9, 0x9, "K6-III" },
    { 0xa, 0xa, "Geode LX" },
    { 0xd, 0xd, "K6-2+/K6-III+" },
};

static const struct range_name family6[] = {
    { 0x1, 0x1, "K7 (Argon)" },
    { 0x2, 0x2, "K7 (Pluto/Orion)" },
    { 0x3, 0x3, "K7 (Spitfire)" },
    { 0x4, 0x4, "K7 (Thunderbird)" },
    { 0x6, 0x6, "K7 (Palomino)" },
    { 0x7, 0x7, "K7 (Morgan)" },
    { 0x8, 0x8, "K7 (Thoroughbred)" },
    { 0xa, 0xa, "K7 (Barton)" },
};

static const struct range_name family15h[] = {
    { 0x00, 0x01, "Bulldozer" },
    { 0x02, 0x02, "Piledriver" },
    { 0x10, 0x1f, "Piledriver" },
    { 0x30, 0x3f, "Steamroller" },
    { 0x60, 0x7f, "Excavator" },
};

static const struct range_name family16h[] = {
    { 0x00, 0x0f, "Jaguar" },
    { 0x30, 0x3f, "Puma" },
};

static const struct range_name family17h[] = {
    { 0x01, 0x01, "Zen" },
    { 0x08, 0x08, "Zen+" },
    { 0x11, 0x11, "Zen" },
    { 0x18, 0x18, "Zen+" },
    { 0x20, 0x20, "Zen" },
    { 0x00, 0x2f, "Zen / Zen+" },
    { 0x50, 0x5f, "Zen / Zen+" },
    { 0x30, 0x4f, "Zen 2" },
    { 0x60, 0x7f, "Zen 2" },
    { 0x90, 0x91, "Zen 2" },
    { 0xa0, 0xaf, "Zen 2" },
};

static const struct range_name family19h[] = {
    { 0x00, 0x0f, "Zen 3" },
    { 0x20, 0x5f, "Zen 3" },
    { 0x10, 0x1f, "Zen 4" },
    { 0x60, 0xaf, "Zen 4" },
};

static const struct range_name family1ah[] = {
    { 0x00, 0x2f, "Zen 5" },
    { 0x40, 0x4f, "Zen 5" },
    { 0x60, 0x7f, "Zen 5" },
};

/* First match wins, so exact models come before the ranges that hold them. */
static const char *lookup(const struct range_name *t, unsigned n, unsigned model)
{
    for (unsigned i = 0; i < n; i++)
        if (model >= t[i].first && model <= t[i].last)
            return t[i].name;
    return NULL;
}

#define LOOKUP(t, m) lookup(t, sizeof t / sizeof t[0], m)

const char *cpu_name_amd(unsigned family, unsigned model)
{
    switch (family) {
    case 0x4: return LOOKUP(family4, model);
    case 0x5: return LOOKUP(family5, model);
    case 0x6: return LOOKUP(family6, model);
    case 0xf: return "K8";
    case 0x10: return "K10";
    case 0x11: return "K8/K10 hybrid (Griffin)";
    case 0x12: return "K10 (Llano)";
    case 0x14: return "Bobcat";
    case 0x15: return LOOKUP(family15h, model);
    case 0x16: return LOOKUP(family16h, model);
    case 0x17: return LOOKUP(family17h, model);
    case 0x19: return LOOKUP(family19h, model);
    case 0x1a: return LOOKUP(family1ah, model);
    }
    return NULL;
}
