/* The core named by its features (issue 29, item 12).
 *
 * The model number is what a hypervisor chooses to report: the CEO's KVM
 * guest says family 6 model 0xA7 on a Granite Rapids. It cannot report
 * instructions the core lacks, so where the features contradict the core the
 * model number names, the features name it: each core below is a set of
 * CPUID bits it surely has (`sure`, one of `any`) and the bits it may have
 * (`may`); a bit outside `may` rules it out. One fitting core is the name;
 * several (cores with one ISA: Alder Lake and Meteor Lake), or none, give
 * "unknown (A or B)". The model table's name is never given for a core its
 * features contradict.
 *
 * The bits (Intel SDM vol. 2A, CPUID, Table 3-8 "Information Returned by
 * CPUID Instruction"; Intel Architecture Instruction Set Extensions
 * Programming Reference (ISE, doc. 319433), Table 1-5 "CPUID Leaf 07H"; AMD
 * APM vol. 3, Appendix E.3, CPUID Fn0000_0007):
 *   CPUID.(EAX=07H,ECX=0):EBX[5]  AVX2          EBX[16] AVX512F    EBX[24] CLWB
 *                         ECX[6]  AVX512_VBMI2  ECX[11] AVX512_VNNI
 *                         EDX[8]  AVX512_VP2INTERSECT   EDX[15] Hybrid (the part has
 *                                 two core types)       EDX[23] AVX512_FP16  EDX[24] AMX-TILE
 *   CPUID.(EAX=07H,ECX=1):EAX[4]  AVX-VNNI      EAX[5]  AVX512_BF16
 *                         EAX[21] AMX-FP16      EAX[23] AVX-IFMA
 *                         EDX[14] PREFETCHI     EDX[19] AVX10 (Intel AVX10
 *                                 Architecture Specification, doc. 355989, 3.1)
 * Which core brought which bit: ISE Table 1-2 "Recent Instruction Set
 * Extensions / Features Introduction in Intel 64 and IA-32 Processors"
 * (AVX512_VNNI Cascade Lake; AVX512_BF16 Cooper Lake; AVX512_VBMI2 Ice Lake;
 * AVX512_VP2INTERSECT Tiger Lake; AMX, AVX512_FP16, AVX-VNNI Sapphire Rapids;
 * AVX-VNNI Alder Lake; AMX-FP16, PREFETCHI Granite Rapids; AVX-IFMA Sierra
 * Forest, Arrow Lake, Lunar Lake), and GCC's -march definitions, which list
 * each core's ISA (gcc.gnu.org/gcc-13/changes.html: "graniterapids: based on
 * Sapphire Rapids, ... AMX-FP16 and PREFETCHI"; raptorlake and meteorlake
 * "based on Alder Lake"; sierraforest and grandridge: Alder Lake's with
 * AVX-IFMA, AVX-VNNI-INT8, AVX-NE-CONVERT, CMPccXADD; gcc-14/changes.html:
 * arrowlake; pantherlake and clearwaterforest add PREFETCHI; gcc-15:
 * diamondrapids, Granite Rapids' with AVX-IFMA and AVX10.2; gcc-9: znver2
 * adds CLWB; gcc-13: znver4 adds AVX-512; gcc-14: znver5 adds AVX-VNNI and
 * AVX512_VP2INTERSECT). A hypervisor may hide bits (never add ones the core
 * lacks), so a missing `sure` bit contradicts only where every part has it.
 * Which LLVM CPU each has: `llvm-mca-16 -mcpu=help`, llvm/lib/Target/X86/X86.td. */
#include "cpu_core.h"
#include "cpu_models.h"
#include "lib/kstring.h"

#define I_BASE (CT_AVX2)
#define I_SKX (I_BASE | CT_AVX512F)
#define I_CLX (I_SKX | CT_AVX512VNNI)
#define I_ICL (I_CLX | CT_AVX512VBMI2)
#define I_SPR (I_ICL | CT_AVX512BF16 | CT_AVX512FP16 | CT_AMX | CT_AVXVNNI)
#define I_GNR (I_SPR | CT_AMXFP16 | CT_PREFETCHI | CT_AVX10)
#define I_ADL (I_BASE | CT_AVXVNNI | CT_HYBRID)
#define I_SRF (I_BASE | CT_AVXVNNI | CT_AVXIFMA)
/* What tells Intel cores apart; CLWB is no test there (Skylake-SP has it, its
 * client cores do not). AMD's: its families plus these. */
#define INTEL_TRAITS (I_GNR | CT_VP2INTERSECT | CT_HYBRID | CT_AVXIFMA)
#define AMD_TRAITS (CT_AVX2 | CT_AVX512F | CT_CLWB | CT_VP2INTERSECT | CT_AVXVNNI)
#define Z4 (CT_AVX2 | CT_CLWB | CT_AVX512F)

#define INTEL(nm, cr, l, nr, sure, any, may, ...) \
    { VENDOR_INTEL, 0, nm, cr, l, nr, { __VA_ARGS__ }, sure, any, may }
#define AMD(f, nm, cr, l, nr, sure, may, ...) \
    { VENDOR_AMD, f, nm, cr, l, nr, { __VA_ARGS__ }, sure, 0, may }

const struct cpu_core_class cpu_core_classes[] = {
    INTEL("Haswell", "Haswell", "haswell", false, 0, 0, I_BASE, "haswell"),
    INTEL("Broadwell", "Broadwell", "broadwell", false, 0, 0, I_BASE, "broadwell"),
    INTEL("Skylake", "Skylake", "skylake", false, 0, 0, I_BASE, "skylake"),
    INTEL("Skylake-SP", "Skylake-SP", "skylake-avx512", false, CT_AVX512F, 0, I_SKX, "skylake-avx512"),
    INTEL("Cascade Lake", "Cascade Lake", "cascadelake", false, CT_AVX512F | CT_AVX512VNNI, 0, I_CLX,
          "cascadelake"),
    INTEL("Cooper Lake", "Cooper Lake", "cooperlake", false,
          CT_AVX512F | CT_AVX512VNNI | CT_AVX512BF16, 0, I_CLX | CT_AVX512BF16, "cooperlake"),
    INTEL("Ice Lake", "Sunny Cove", "icelake-server", false, CT_AVX512F | CT_AVX512VBMI2, 0, I_ICL,
          "icelake-client", "icelake-server"),
    INTEL("Rocket Lake", "Cypress Cove", "rocketlake", false, CT_AVX512F | CT_AVX512VBMI2, 0, I_ICL,
          "rocketlake"),
    INTEL("Tiger Lake", "Willow Cove", "tigerlake", false,
          CT_AVX512F | CT_AVX512VBMI2 | CT_VP2INTERSECT, 0, I_ICL | CT_VP2INTERSECT, "tigerlake"),
    /* One ISA, two near-identical cores (Raptor Cove is Golden Cove with a
     * larger L2): the features name the pair. */
    INTEL("Sapphire/Emerald Rapids", "Golden Cove", "sapphirerapids", false,
          CT_AMX | CT_AVX512FP16, 0, I_SPR, "sapphirerapids", "emeraldrapids"),
    INTEL("Granite Rapids", "Redwood Cove", "graniterapids", false, CT_AMX | CT_AVX512FP16,
          CT_PREFETCHI | CT_AMXFP16 | CT_AVX10, I_GNR, "graniterapids"),
    INTEL("Diamond Rapids", "Panther Cove", "graniterapids", true, CT_AMX | CT_AVXIFMA, 0,
          I_GNR | CT_AVXIFMA, "Diamond Rapids"),
    INTEL("Alder/Raptor Lake", "Golden Cove", "alderlake", false, CT_AVXVNNI, 0, I_ADL, "alderlake",
          "raptorlake"),
    INTEL("Meteor Lake", "Redwood Cove", "meteorlake", false, CT_AVXVNNI, 0, I_ADL, "meteorlake",
          "Arrow Lake-U"),
    INTEL("Arrow/Lunar Lake", "Lion Cove", "alderlake", true, CT_AVXVNNI | CT_AVXIFMA, 0,
          I_ADL | CT_AVXIFMA, "Arrow Lake", "Arrow Lake-H", "Lunar Lake"),
    INTEL("Panther Lake", "Cougar Cove", "alderlake", true, CT_AVXVNNI | CT_AVXIFMA | CT_PREFETCHI, 0,
          I_ADL | CT_AVXIFMA | CT_PREFETCHI, "Panther Lake"),
    INTEL("Sierra Forest", "Crestmont", "sierraforest", false, CT_AVXVNNI | CT_AVXIFMA, 0, I_SRF,
          "sierraforest", "grandridge"),
    INTEL("Clearwater Forest", "Darkmont", "sierraforest", true,
          CT_AVXVNNI | CT_AVXIFMA | CT_PREFETCHI, 0, I_SRF | CT_PREFETCHI,
          "Clearwater Forest (Darkmont)"),
    /* AMD: the family first (AMD PPRs; Linux arch/x86/kernel/cpu/amd.c), then
     * CLWB (Zen 2 on), AVX-512 (Zen 4 on), AVX-VNNI and AVX512_VP2INTERSECT
     * (Zen 5). */
    AMD(0x17, "Zen/Zen+", "Zen/Zen+", "znver1", false, 0, CT_AVX2, "znver1"),
    AMD(0x17, "Zen 2", "Zen 2", "znver2", false, CT_CLWB, CT_AVX2 | CT_CLWB, "znver2"),
    AMD(0x19, "Zen 3", "Zen 3", "znver3", false, CT_CLWB, CT_AVX2 | CT_CLWB, "znver3"),
    AMD(0x19, "Zen 4", "Zen 4", "znver4", false, CT_AVX512F, Z4, "znver4"),
    AMD(0x1a, "Zen 5", "Zen 5", "znver4", true, CT_AVX512F, Z4 | CT_VP2INTERSECT | CT_AVXVNNI,
        "Zen 5"),
};
const unsigned cpu_core_class_count = sizeof cpu_core_classes / sizeof cpu_core_classes[0];

static const char *const trait_names[CT_COUNT] = {
    "AVX2", "AVX-512F", "AVX512-VBMI2", "AVX512-VNNI", "AVX512-VP2INTERSECT", "hybrid",
    "AVX512-FP16", "AMX-TILE", "AVX-VNNI", "AVX512-BF16", "AMX-FP16", "AVX-IFMA", "PREFETCHI",
    "AVX10", "CLWB",
};

const char *cpu_core_trait_name(uint32_t trait)
{
    for (unsigned b = 0; b < CT_COUNT; b++)
        if (trait == 1u << b)
            return trait_names[b];
    return "?";
}

static unsigned bit(uint32_t word, unsigned n) { return (word >> n) & 1u; }

uint32_t cpu_core_traits(const struct cpu_info *c)
{
    const struct cpuid_regs *l7 = c->max_leaf >= 7 ? cpu_raw_find(c, 7, 0) : NULL;
    const struct cpuid_regs *l71 = l7 && l7->eax >= 1 ? cpu_raw_find(c, 7, 1) : NULL;
    uint32_t t = 0;
    if (l7) {
        t |= bit(l7->ebx, 5) ? CT_AVX2 : 0;
        t |= bit(l7->ebx, 16) ? CT_AVX512F : 0;
        t |= bit(l7->ebx, 24) ? CT_CLWB : 0;
        t |= bit(l7->ecx, 6) ? CT_AVX512VBMI2 : 0;
        t |= bit(l7->ecx, 11) ? CT_AVX512VNNI : 0;
        t |= bit(l7->edx, 8) ? CT_VP2INTERSECT : 0;
        t |= bit(l7->edx, 15) ? CT_HYBRID : 0;
        t |= bit(l7->edx, 23) ? CT_AVX512FP16 : 0;
        t |= bit(l7->edx, 24) ? CT_AMX : 0;
    }
    if (l71) {
        t |= bit(l71->eax, 4) ? CT_AVXVNNI : 0;
        t |= bit(l71->eax, 5) ? CT_AVX512BF16 : 0;
        t |= bit(l71->eax, 21) ? CT_AMXFP16 : 0;
        t |= bit(l71->eax, 23) ? CT_AVXIFMA : 0;
        t |= bit(l71->edx, 14) ? CT_PREFETCHI : 0;
        t |= bit(l71->edx, 19) ? CT_AVX10 : 0;
    }
    return t;
}

static uint32_t vendor_traits(unsigned vendor)
{
    return vendor == VENDOR_INTEL ? INTEL_TRAITS : vendor == VENDOR_AMD ? AMD_TRAITS : 0;
}

static bool fits_traits(const struct cpu_core_class *k, unsigned vendor, uint32_t has)
{
    has &= vendor_traits(vendor);
    return k->vendor == vendor && (has & k->sure) == k->sure && (!k->any || (has & k->any)) &&
           !(has & ~k->may);
}

bool cpu_core_fits(const struct cpu_core_class *k, const struct cpu_info *c)
{
    return fits_traits(k, c->vendor, cpu_core_traits(c));
}

/* The class of the model table's row: the one listing its LLVM or its name. */
static const struct cpu_core_class *class_of_row(const struct cpu_model *m, unsigned vendor)
{
    for (unsigned i = 0; m && i < cpu_core_class_count; i++) {
        const struct cpu_core_class *k = &cpu_core_classes[i];
        for (unsigned r = 0; k->vendor == vendor && r < 4 && k->rows[r]; r++)
            if ((m->llvm && kstrcmp(k->rows[r], m->llvm) == 0) ||
                (m->name && kstrcmp(k->rows[r], m->name) == 0))
                return k;
    }
    return NULL;
}

/* Bit i for every class that fits c: AMD's of c's family first, any family
 * when none of those does (a hypervisor may report another family too). */
/* The classes c's features fit, of its own family first; *elsewhere set when
 * only classes of another family fit: then only a feature the model's core
 * never has names one (a missing one is a candidate at most: a Zen 4
 * signature without AVX-512 is no Zen/Zen+). */
static uint32_t fitting(const struct cpu_info *c, bool *elsewhere)
{
    uint32_t has = cpu_core_traits(c), fits = 0;
    *elsewhere = false;
    for (int pass = 0; pass < 2 && !fits; pass++) {
        for (unsigned i = 0; i < cpu_core_class_count; i++) {
            const struct cpu_core_class *k = &cpu_core_classes[i];
            if ((pass == 0 && k->family && k->family != c->family) || !fits_traits(k, c->vendor, has))
                continue;
            fits |= 1u << i;
        }
        *elsewhere = pass == 1 && fits;
    }
    return fits;
}

static void append(char *s, size_t size, const char *t)
{
    size_t len = kstrlen(s);
    while (*t && len + 1 < size)
        s[len++] = *t++;
    if (len < size)
        s[len] = 0;
}

/* "A, B or C" of the classes in `set` (names), or of the traits in `set`. */
static void append_list(char *s, size_t size, uint32_t set, bool classes, const char *last_word)
{
    unsigned total = 0, seen = 0, n = classes ? cpu_core_class_count : CT_COUNT;
    for (unsigned i = 0; i < n; i++)
        total += bit(set, i);
    for (unsigned i = 0; i < n; i++) {
        if (!bit(set, i))
            continue;
        append(s, size, seen == 0 ? "" : seen + 1 == total ? last_word : ", ");
        append(s, size, classes ? cpu_core_classes[i].name : trait_names[i]);
        seen++;
    }
}

/* Whether c's features contradict the core of the model table's row: c has
 * a bit that core never has, or lacks AVX-512F, which every part of it has
 * (the one absence taken as evidence, as before: kernel/uarch/identity.c; a
 * hypervisor hides other bits more often than it fakes the model). Without
 * leaf 7 nothing is known, so nothing contradicts. */
static bool contradicts(const struct cpu_core_class *row, const struct cpu_info *c)
{
    uint32_t has = cpu_core_traits(c) & vendor_traits(c->vendor);
    if (!row || !(c->max_leaf >= 7 && cpu_raw_find(c, 7, 0)))
        return false;
    return (has & ~row->may) || (row->sure & CT_AVX512F & ~has);
}

void cpu_decode_core(struct cpu_info *c)
{
    c->named_by = CPU_NAMED_BY_MODEL;
    c->core_fits = 0;
    if (c->generation != CPU_GEN_CPUID ||
        !contradicts(class_of_row(cpu_model_of(c), c->vendor), c))
        return; /* the model number is taken at its word */
    bool elsewhere;
    const struct cpu_core_class *row = class_of_row(cpu_model_of(c), c->vendor);
    bool present = (cpu_core_traits(c) & vendor_traits(c->vendor) & ~row->may) != 0;
    c->core_fits = fitting(c, &elsewhere);
    unsigned n = 0, only = 0;
    for (unsigned i = 0; i < cpu_core_class_count; i++)
        if (bit(c->core_fits, i))
            n++, only = i;
    if (n == 1 && (!elsewhere || present)) {
        c->named_by = CPU_NAMED_BY_FEATURES;
        const struct cpu_core_class *k = &cpu_core_classes[only];
        c->name[0] = 0;
        append(c->name, sizeof c->name, k->name);
        if (kstrcmp(k->name, k->core) != 0) {
            append(c->name, sizeof c->name, " (");
            append(c->name, sizeof c->name, k->core);
            append(c->name, sizeof c->name, ")");
        }
        return;
    }
    c->named_by = CPU_NAMED_UNDECIDED;
    if (!n) {
        c->name[0] = 0;
        append(c->name, sizeof c->name, "unknown (no core known has these features)");
        return;
    }
    kstrlcpy(c->name, "unknown (", sizeof c->name);
    append_list(c->name, sizeof c->name, c->core_fits, true, " or ");
    append(c->name, sizeof c->name, ")");
}

const struct cpu_core_class *cpu_core_named(const struct cpu_info *c)
{
    if (c->named_by != CPU_NAMED_BY_FEATURES)
        return NULL;
    for (unsigned i = 0; i < cpu_core_class_count; i++)
        if (bit(c->core_fits, i))
            return &cpu_core_classes[i];
    return NULL;
}

const char *cpu_core_llvm(const struct cpu_info *c)
{
    if (c->named_by == CPU_NAMED_UNDECIDED)
        return NULL;
    if (c->named_by == CPU_NAMED_BY_FEATURES)
        return cpu_core_named(c)->llvm;
    const struct cpu_model *m = c->generation == CPU_GEN_CPUID ? cpu_model_of(c) : NULL;
    return m ? m->llvm : NULL;
}

const char *cpu_named_by_name(unsigned named_by)
{
    return named_by == CPU_NAMED_BY_FEATURES ? "features"
           : named_by == CPU_NAMED_UNDECIDED ? "undecided" : "model number";
}

static void append_hex(char *s, size_t size, unsigned v)
{
    char d[12];
    int n = 0;
    do {
        d[n++] = "0123456789ABCDEF"[v & 15];
        v >>= 4;
    } while (v && n < (int)sizeof d - 1);
    append(s, size, "0x");
    char one[2] = { 0, 0 };
    while (n > 0) {
        one[0] = d[--n];
        append(s, size, one);
    }
}

void cpu_core_why(const struct cpu_info *c, char *buf, size_t size)
{
    if (!size)
        return;
    buf[0] = 0;
    if (c->named_by == CPU_NAMED_BY_MODEL)
        return;
    const struct cpu_core_class *row = class_of_row(cpu_model_of(c), c->vendor);
    uint32_t has = cpu_core_traits(c) & vendor_traits(c->vendor);
    uint32_t extra = row ? has & ~row->may : 0, missing = row ? row->sure & CT_AVX512F & ~has : 0;
    append(buf, size, "the model number (family ");
    append_hex(buf, size, c->family);
    append(buf, size, ", model ");
    append_hex(buf, size, c->model);
    append(buf, size, ") names a core ");
    if (extra) {
        append(buf, size, "without ");
        append_list(buf, size, extra, false, " and ");
        append(buf, size, ", which this CPU has");
    }
    if (missing) {
        append(buf, size, extra ? ", and with " : "with ");
        append_list(buf, size, missing, false, " and ");
        append(buf, size, extra ? ", which it lacks" : ", which this CPU lacks");
    }
    if (c->named_by == CPU_NAMED_BY_FEATURES) {
        append(buf, size, "; its features are those of ");
        append(buf, size, cpu_core_named(c)->name);
        append(buf, size, " alone");
    } else if (c->core_fits) {
        append(buf, size, "; its features fit ");
        append_list(buf, size, c->core_fits, true, " and ");
        append(buf, size, " alike");
    } else {
        append(buf, size, "; no core cyclekit knows has its features");
    }
}
