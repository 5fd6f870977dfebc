/* The LLVM CPUs that kernel/cpu/cpu_models.c names, with the discriminating
 * features (enum llvm_trait) of each one's definition in LLVM 16
 * (llvm/lib/Target/X86/X86.td, the ProcessorFeatures lists: SKXFeatures add
 * AVX-512 to Skylake's, SPRFeatures add AMX-TILE, AVX512-FP16 and AVX-VNNI,
 * ADLFeatures have AVX-VNNI and no AVX-512; ZN4Features add AVX-512 to
 * Zen 3's), which match Intel's and AMD's product briefs. Every LLVM name of
 * cpu_models.c must be here (a unit test says so); scripts/gen-expectations
 * runs llvm-mca for each. */
#include "cpu/cpu.h"
#include "lib/kstring.h"
#include "llvm_model.h"

#define A2 TRAIT_AVX2
#define S512 (TRAIT_AVX2 | TRAIT_AVX512F)
#define SPR (TRAIT_AVX2 | TRAIT_AVX512F | TRAIT_AVX512FP16 | TRAIT_AMX | TRAIT_AVXVNNI)
#define ADL (TRAIT_AVX2 | TRAIT_AVXVNNI)

const struct llvm_cpu llvm_cpus[] = {
    { "i486", 0 }, { "pentium", 0 }, { "pentium-mmx", 0 }, { "pentiumpro", 0 },
    { "pentium2", 0 }, { "pentium3", 0 }, { "pentium-m", 0 }, { "pentium4", 0 },
    { "prescott", 0 }, { "nocona", 0 }, { "yonah", 0 }, { "core2", 0 }, { "penryn", 0 },
    { "nehalem", 0 }, { "westmere", 0 }, { "sandybridge", 0 }, { "ivybridge", 0 },
    { "haswell", A2 }, { "broadwell", A2 }, { "skylake", A2 },
    { "skylake-avx512", S512 }, { "cascadelake", S512 }, { "cooperlake", S512 },
    { "cannonlake", S512 }, { "icelake-client", S512 }, { "icelake-server", S512 },
    { "tigerlake", S512 }, { "rocketlake", S512 },
    { "alderlake", ADL }, { "raptorlake", ADL }, { "meteorlake", ADL },
    { "sierraforest", ADL }, { "grandridge", ADL },
    { "sapphirerapids", SPR }, { "emeraldrapids", SPR }, { "graniterapids", SPR },
    { "knl", S512 }, { "knm", S512 }, { "lakemont", 0 },
    { "bonnell", 0 }, { "silvermont", 0 }, { "goldmont", 0 }, { "goldmont-plus", 0 },
    { "tremont", 0 },
    { "k6", 0 }, { "k6-2", 0 }, { "k6-3", 0 }, { "athlon", 0 }, { "k8", 0 },
    { "amdfam10", 0 }, { "btver1", 0 }, { "btver2", 0 }, { "bdver1", 0 }, { "bdver2", 0 },
    { "bdver3", 0 }, { "bdver4", A2 },
    { "znver1", A2 }, { "znver2", A2 }, { "znver3", A2 }, { "znver4", S512 },
    { "c3", 0 }, { "c3-2", 0 }, { "winchip-c6", 0 }, { "winchip2", 0 }, { "geode", 0 },
};
const unsigned llvm_cpu_count = sizeof llvm_cpus / sizeof llvm_cpus[0];

const struct llvm_cpu *llvm_cpu_named(const char *name)
{
    for (unsigned i = 0; name && i < llvm_cpu_count; i++)
        if (kstrcmp(llvm_cpus[i].name, name) == 0)
            return &llvm_cpus[i];
    return NULL;
}

const struct llvm_model *llvm_model_named(const char *name)
{
    for (unsigned i = 0; name && i < llvm_model_count; i++)
        if (kstrcmp(llvm_models[i].u.name, name) == 0)
            return &llvm_models[i];
    return NULL;
}

/* AVX-VNNI has no feature word of its own: CPUID.(EAX=7,ECX=1):EAX[4]
 * (Intel SDM vol. 2A, CPUID, Table 3-8), read from the raw leaves. */
static bool has_avx_vnni(const struct cpu_info *c)
{
    const struct cpuid_regs *r = c->max_leaf >= 7 ? cpu_raw_find(c, 7, 1) : NULL;
    return r && (r->eax >> 4) & 1;
}

unsigned llvm_traits_of(const struct cpu_info *c)
{
    unsigned t = 0;
    t |= cpu_has(c, FEAT_AVX2) ? TRAIT_AVX2 : 0;
    t |= cpu_has(c, FEAT_AVX512F) ? TRAIT_AVX512F : 0;
    t |= cpu_has(c, FEAT_AVX512FP16) ? TRAIT_AVX512FP16 : 0;
    t |= cpu_has(c, FEAT_AMX_TILE) ? TRAIT_AMX : 0;
    t |= has_avx_vnni(c) ? TRAIT_AVXVNNI : 0;
    return t;
}

const char *llvm_trait_name(unsigned trait)
{
    switch (trait) {
    case TRAIT_AVX2: return "AVX2";
    case TRAIT_AVX512F: return "AVX-512F";
    case TRAIT_AVX512FP16: return "AVX512-FP16";
    case TRAIT_AMX: return "AMX";
    case TRAIT_AVXVNNI: return "AVX-VNNI";
    default: return "?";
    }
}
