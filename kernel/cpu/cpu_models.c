/* The one table from vendor, family and model to what the rest of the
 * kernel knows about a processor: its name and the facts other rooms need
 * (enum cpu_model_fact). Nothing outside kernel/cpu/ and kernel/uarch/ (the
 * microarchitectures, one file each, with their own identity ranges) tests
 * family or model numbers; docs/adding-a-cpu.md says how to add a row.
 *
 * Lookup: the first row that matches wins, so exact models come before the
 * ranges that hold them, and a row with a NULL name gives the facts of
 * models that have no name of their own (a name that is not
 * known prints as unknown: a wrong name is worse).
 *
 * Sources of the names: Intel AP-485 "Intel Processor Identification and
 * the CPUID Instruction" (families 4, 5, 6 to Pentium III, 15; the processor
 * type 1 of OverDrive parts); Intel SDM vol. 4, Table 2-1 "CPUID Signature
 * Values of DisplayFamily_DisplayModel"; Linux
 * arch/x86/include/asm/intel-family.h (later models; the steppings that
 * split model 0x55); AMD Processor Recognition Application Note (pub. 20734)
 * for families 4-6; AMD BKDGs / PPRs for families 0Fh-1Ah and Linux
 * arch/x86/kernel/cpu/amd.c (the model ranges of Zen 1 to Zen 5); Cyrix,
 * Centaur/VIA/Zhaoxin, Transmeta, NexGen, UMC, Rise, SiS and NSC data books
 * and sandpile.org ("x86 CPUID"); Linux arch/x86/kernel/cpu/hygon.c; the
 * InstLatx64 dump collection (file names pair signatures with codenames).
 *
 * The last column is LLVM's -mcpu name for the row (NULL: LLVM 16 has none
 * for it, e.g. Zen 5, Arrow Lake, or a core LLVM folds into another
 * microarchitecture's, e.g. Alder Lake-N's E-cores under "alderlake"'s P-core
 * model). It is the only identity -> LLVM map: kernel/uarch/ attaches the
 * generated table of that LLVM model (unless the identity is uncertain), and
 * scripts/gen-expectations copies the rows into cyclekit/llvm_cpu_table.py for
 * the host. Keep one row per line: the generator reads this file.
 */
#include "cpu_models.h"

#define ROW_(v, f, lo, hi, s0, s1, t, nm, facts, llvm) { VENDOR_##v, f, lo, hi, s0, s1, t, nm, facts, llvm }
#define ROW(v, f, lo, hi, nm, facts, llvm) ROW_(v, f, lo, hi, 0, 0xff, CPU_ANY_TYPE, nm, facts, llvm)
#define ROW_STEPPINGS(v, f, m, s0, s1, nm, facts, llvm) ROW_(v, f, m, m, s0, s1, CPU_ANY_TYPE, nm, facts, llvm)
#define ROW_TYPE(v, f, lo, hi, t, nm, facts, llvm) ROW_(v, f, lo, hi, 0, 0xff, t, nm, facts, llvm)

static const struct cpu_model models[] = {
    /* ---- Intel ---- */
    ROW(INTEL, 0x4, 0x00, 0x00, "i486DX", 0, "i486"),
    ROW(INTEL, 0x4, 0x01, 0x01, "i486DX-50", 0, "i486"),
    ROW(INTEL, 0x4, 0x02, 0x02, "i486SX", 0, "i486"),
    ROW(INTEL, 0x4, 0x03, 0x03, "i486DX2", 0, "i486"),
    ROW(INTEL, 0x4, 0x04, 0x04, "i486SL", 0, "i486"),
    ROW(INTEL, 0x4, 0x05, 0x05, "i486SX2", 0, "i486"),
    ROW(INTEL, 0x4, 0x07, 0x07, "i486DX2-WB", 0, "i486"),
    ROW(INTEL, 0x4, 0x08, 0x08, "i486DX4", 0, "i486"),
    ROW(INTEL, 0x4, 0x09, 0x09, "i486DX4-WB", 0, "i486"),
    ROW_TYPE(INTEL, 0x5, 0x01, 0x02, 1, "Pentium OverDrive", CPU_TSC_CORE_CLOCK, NULL),
    ROW_TYPE(INTEL, 0x5, 0x04, 0x04, 1, "Pentium MMX OverDrive (P54CTB)", CPU_TSC_CORE_CLOCK, "pentium-mmx"),
    ROW(INTEL, 0x5, 0x00, 0x00, "Pentium (P5 A-step)", CPU_TSC_CORE_CLOCK, "pentium"),
    ROW(INTEL, 0x5, 0x01, 0x01, "Pentium (P5)", CPU_TSC_CORE_CLOCK, "pentium"),
    ROW(INTEL, 0x5, 0x02, 0x02, "Pentium (P54C)", CPU_TSC_CORE_CLOCK, "pentium"),
    ROW(INTEL, 0x5, 0x03, 0x03, "Pentium OverDrive for 486 (P24T)", CPU_TSC_CORE_CLOCK, NULL),
    ROW(INTEL, 0x5, 0x04, 0x04, "Pentium MMX (P55C)", CPU_TSC_CORE_CLOCK, "pentium-mmx"),
    ROW(INTEL, 0x5, 0x05, 0x05, "Pentium OverDrive for DX4 (P24CT)", CPU_TSC_CORE_CLOCK, NULL),
    ROW(INTEL, 0x5, 0x06, 0x06, "Pentium OverDrive for 5V Pentium (P5T)", CPU_TSC_CORE_CLOCK, NULL),
    ROW(INTEL, 0x5, 0x07, 0x07, "Pentium (P54CS)", CPU_TSC_CORE_CLOCK, "pentium"),
    ROW(INTEL, 0x5, 0x08, 0x08, "Pentium MMX mobile (Tillamook)", CPU_TSC_CORE_CLOCK, "pentium-mmx"),
    ROW(INTEL, 0x5, 0x09, 0x09, "Quark (Lakemont)", CPU_TSC_CORE_CLOCK, "lakemont"),
    ROW(INTEL, 0x5, 0x00, 0xff, NULL, CPU_TSC_CORE_CLOCK, NULL), /* any other family-5 part */
    ROW(INTEL, 0x6, 0x01, 0x01, "Pentium Pro", CPU_P6_PMU, "pentiumpro"),
    ROW(INTEL, 0x6, 0x03, 0x03, "Pentium II (Klamath)", CPU_P6_PMU, "pentium2"),
    ROW(INTEL, 0x6, 0x05, 0x05, "Pentium II (Deschutes)", CPU_P6_PMU, "pentium2"),
    ROW(INTEL, 0x6, 0x06, 0x06, "Pentium II / Celeron (Mendocino)", CPU_P6_PMU, "pentium2"),
    ROW(INTEL, 0x6, 0x07, 0x07, "Pentium III (Katmai)", CPU_P6_PMU, "pentium3"),
    ROW(INTEL, 0x6, 0x08, 0x08, "Pentium III (Coppermine)", CPU_P6_PMU, "pentium3"),
    ROW(INTEL, 0x6, 0x09, 0x09, "Pentium M (Banias)", CPU_P6_PMU, "pentium-m"),
    ROW(INTEL, 0x6, 0x0a, 0x0a, "Pentium III Xeon (Cascades)", CPU_P6_PMU, "pentium3"),
    ROW(INTEL, 0x6, 0x0b, 0x0b, "Pentium III (Tualatin)", CPU_P6_PMU, "pentium3"),
    ROW(INTEL, 0x6, 0x0d, 0x0d, "Pentium M (Dothan)", CPU_P6_PMU, "pentium-m"),
    ROW(INTEL, 0x6, 0x0e, 0x0e, "Core (Yonah)", 0, "yonah"),
    ROW(INTEL, 0x6, 0x0f, 0x0f, "Core 2 (Merom/Conroe)", 0, "core2"),
    ROW(INTEL, 0x6, 0x15, 0x15, "Pentium M (Tolapai)", 0, "pentium-m"),
    ROW(INTEL, 0x6, 0x16, 0x16, "Core 2 (Merom-L)", 0, "core2"),
    ROW(INTEL, 0x6, 0x17, 0x17, "Core 2 (Penryn)", 0, "penryn"),
    ROW(INTEL, 0x6, 0x1a, 0x1a, "Nehalem-EP", 0, "nehalem"),
    ROW(INTEL, 0x6, 0x1c, 0x1c, "Atom (Bonnell)", 0, "bonnell"),
    ROW(INTEL, 0x6, 0x1d, 0x1d, "Core 2 (Dunnington)", 0, "core2"),
    ROW(INTEL, 0x6, 0x1e, 0x1e, "Nehalem", 0, "nehalem"),
    ROW(INTEL, 0x6, 0x1f, 0x1f, "Nehalem (Auburndale/Havendale)", 0, "nehalem"),
    ROW(INTEL, 0x6, 0x25, 0x25, "Westmere", 0, "westmere"),
    ROW(INTEL, 0x6, 0x26, 0x26, "Atom (Bonnell, Lincroft)", 0, "bonnell"),
    ROW(INTEL, 0x6, 0x27, 0x27, "Atom (Saltwell, Penwell)", 0, "bonnell"),
    ROW(INTEL, 0x6, 0x2a, 0x2a, "Sandy Bridge", 0, "sandybridge"),
    ROW(INTEL, 0x6, 0x2c, 0x2c, "Westmere-EP", 0, "westmere"),
    ROW(INTEL, 0x6, 0x2d, 0x2d, "Sandy Bridge-EP", 0, "sandybridge"),
    ROW(INTEL, 0x6, 0x2e, 0x2e, "Nehalem-EX", 0, "nehalem"),
    ROW(INTEL, 0x6, 0x2f, 0x2f, "Westmere-EX", 0, "westmere"),
    ROW(INTEL, 0x6, 0x35, 0x35, "Atom (Saltwell, Cloverview)", 0, "bonnell"),
    ROW(INTEL, 0x6, 0x36, 0x36, "Atom (Saltwell, Cedarview)", 0, "bonnell"),
    ROW(INTEL, 0x6, 0x37, 0x37, "Atom (Silvermont, Bay Trail)", 0, "silvermont"),
    ROW(INTEL, 0x6, 0x3a, 0x3a, "Ivy Bridge", 0, "ivybridge"),
    ROW(INTEL, 0x6, 0x3c, 0x3c, "Haswell", 0, "haswell"),
    ROW(INTEL, 0x6, 0x3d, 0x3d, "Broadwell", 0, "broadwell"),
    ROW(INTEL, 0x6, 0x3e, 0x3e, "Ivy Bridge-EP", 0, "ivybridge"),
    ROW(INTEL, 0x6, 0x3f, 0x3f, "Haswell-EP", 0, "haswell"),
    ROW(INTEL, 0x6, 0x45, 0x45, "Haswell (ULT)", 0, "haswell"),
    ROW(INTEL, 0x6, 0x46, 0x46, "Haswell (GT3e)", 0, "haswell"),
    ROW(INTEL, 0x6, 0x47, 0x47, "Broadwell (GT3e)", 0, "broadwell"),
    ROW(INTEL, 0x6, 0x4a, 0x4a, "Atom (Silvermont, Merrifield)", 0, "silvermont"),
    ROW(INTEL, 0x6, 0x4c, 0x4c, "Atom (Airmont, Cherry Trail)", 0, "silvermont"),
    ROW(INTEL, 0x6, 0x4d, 0x4d, "Atom (Silvermont, Avoton)", 0, "silvermont"),
    ROW(INTEL, 0x6, 0x4e, 0x4e, "Skylake (mobile)", 0, "skylake"),
    ROW(INTEL, 0x6, 0x4f, 0x4f, "Broadwell-EP", 0, "broadwell"),
    ROW_STEPPINGS(INTEL, 0x6, 0x55, 0, 4, "Skylake-SP", 0, "skylake-avx512"),
    ROW_STEPPINGS(INTEL, 0x6, 0x55, 5, 7, "Cascade Lake", 0, "cascadelake"),
    ROW_STEPPINGS(INTEL, 0x6, 0x55, 10, 11, "Cooper Lake", 0, "cooperlake"),
    ROW(INTEL, 0x6, 0x56, 0x56, "Broadwell-DE", 0, "broadwell"),
    ROW(INTEL, 0x6, 0x57, 0x57, "Xeon Phi (Knights Landing)", 0, "knl"),
    ROW(INTEL, 0x6, 0x5a, 0x5a, "Atom (Silvermont, Anniedale)", 0, "silvermont"),
    ROW(INTEL, 0x6, 0x5c, 0x5c, "Atom (Goldmont, Apollo Lake)", 0, "goldmont"),
    ROW(INTEL, 0x6, 0x5e, 0x5e, "Skylake", 0, "skylake"),
    ROW(INTEL, 0x6, 0x5f, 0x5f, "Atom (Goldmont, Denverton)", 0, "goldmont"),
    ROW(INTEL, 0x6, 0x66, 0x66, "Cannon Lake", 0, "cannonlake"),
    ROW(INTEL, 0x6, 0x6a, 0x6a, "Ice Lake-SP", 0, "icelake-server"),
    ROW(INTEL, 0x6, 0x6c, 0x6c, "Ice Lake-D", 0, "icelake-server"),
    ROW(INTEL, 0x6, 0x75, 0x75, "Atom (Airmont, Lightning Mountain)", 0, "silvermont"),
    ROW(INTEL, 0x6, 0x7a, 0x7a, "Atom (Goldmont Plus, Gemini Lake)", 0, "goldmont-plus"),
    ROW(INTEL, 0x6, 0x7d, 0x7d, "Ice Lake", 0, "icelake-client"),
    ROW(INTEL, 0x6, 0x7e, 0x7e, "Ice Lake (mobile)", 0, "icelake-client"),
    ROW(INTEL, 0x6, 0x85, 0x85, "Xeon Phi (Knights Mill)", 0, "knm"),
    ROW(INTEL, 0x6, 0x86, 0x86, "Atom (Tremont, Snow Ridge)", 0, "tremont"),
    ROW(INTEL, 0x6, 0x8a, 0x8a, "Lakefield", 0, NULL),
    ROW(INTEL, 0x6, 0x8c, 0x8c, "Tiger Lake (mobile)", 0, "tigerlake"),
    ROW(INTEL, 0x6, 0x8d, 0x8d, "Tiger Lake", 0, "tigerlake"),
    ROW(INTEL, 0x6, 0x8e, 0x8e, "Kaby Lake / Coffee Lake (mobile)", 0, "skylake"),
    ROW(INTEL, 0x6, 0x8f, 0x8f, "Sapphire Rapids", 0, "sapphirerapids"),
    ROW(INTEL, 0x6, 0x96, 0x96, "Atom (Tremont, Elkhart Lake)", 0, "tremont"),
    ROW(INTEL, 0x6, 0x97, 0x97, "Alder Lake", 0, "alderlake"),
    ROW(INTEL, 0x6, 0x9a, 0x9a, "Alder Lake (mobile)", 0, "alderlake"),
    ROW(INTEL, 0x6, 0x9c, 0x9c, "Atom (Tremont, Jasper Lake)", 0, "tremont"),
    ROW(INTEL, 0x6, 0x9d, 0x9d, "Ice Lake (NNPI)", 0, "icelake-client"),
    ROW(INTEL, 0x6, 0x9e, 0x9e, "Kaby Lake / Coffee Lake", 0, "skylake"),
    ROW(INTEL, 0x6, 0xa5, 0xa5, "Comet Lake", 0, "skylake"),
    ROW(INTEL, 0x6, 0xa6, 0xa6, "Comet Lake (mobile)", 0, "skylake"),
    ROW(INTEL, 0x6, 0xa7, 0xa7, "Rocket Lake", 0, "rocketlake"),
    ROW(INTEL, 0x6, 0xaa, 0xaa, "Meteor Lake (mobile)", 0, "meteorlake"),
    ROW(INTEL, 0x6, 0xac, 0xac, "Meteor Lake", 0, "meteorlake"),
    ROW(INTEL, 0x6, 0xad, 0xad, "Granite Rapids", 0, "graniterapids"),
    ROW(INTEL, 0x6, 0xae, 0xae, "Granite Rapids-D", 0, "graniterapids"),
    ROW(INTEL, 0x6, 0xaf, 0xaf, "Sierra Forest (Crestmont)", 0, "sierraforest"),
    ROW(INTEL, 0x6, 0xb5, 0xb5, "Arrow Lake-U", 0, NULL),
    ROW(INTEL, 0x6, 0xb6, 0xb6, "Grand Ridge (Crestmont)", 0, "grandridge"),
    ROW(INTEL, 0x6, 0xb7, 0xb7, "Raptor Lake", 0, "raptorlake"),
    ROW(INTEL, 0x6, 0xba, 0xba, "Raptor Lake (mobile)", 0, "raptorlake"),
    ROW(INTEL, 0x6, 0xbd, 0xbd, "Lunar Lake", 0, NULL),
    ROW(INTEL, 0x6, 0xbe, 0xbe, "Alder Lake-N (Gracemont)", 0, NULL),
    ROW(INTEL, 0x6, 0xbf, 0xbf, "Raptor Lake-S", 0, "raptorlake"),
    ROW(INTEL, 0x6, 0xc5, 0xc5, "Arrow Lake-H", 0, NULL),
    ROW(INTEL, 0x6, 0xc6, 0xc6, "Arrow Lake", 0, NULL),
    ROW(INTEL, 0x6, 0xcc, 0xcc, "Panther Lake", 0, NULL),
    ROW(INTEL, 0x6, 0xcf, 0xcf, "Emerald Rapids", 0, "emeraldrapids"),
    ROW(INTEL, 0x6, 0xd7, 0xd7, "Bartlett Lake", 0, NULL),
    ROW(INTEL, 0x6, 0xdd, 0xdd, "Clearwater Forest (Darkmont)", 0, NULL),
    ROW(INTEL, 0xf, 0x00, 0x00, "NetBurst (Willamette)", 0, "pentium4"),
    ROW(INTEL, 0xf, 0x01, 0x01, "NetBurst (Willamette)", 0, "pentium4"),
    ROW(INTEL, 0xf, 0x02, 0x02, "NetBurst (Northwood)", 0, "pentium4"),
    ROW(INTEL, 0xf, 0x03, 0x03, "NetBurst (Prescott)", 0, "prescott"),
    ROW(INTEL, 0xf, 0x04, 0x04, "NetBurst (Prescott)", 0, "prescott"),
    ROW(INTEL, 0xf, 0x06, 0x06, "NetBurst (Cedar Mill/Presler)", 0, "nocona"),
    ROW(INTEL, 0x12, 0x01, 0x01, "Nova Lake", 0, NULL),
    ROW(INTEL, 0x12, 0x03, 0x03, "Nova Lake", 0, NULL),
    ROW(INTEL, 0x13, 0x01, 0x01, "Diamond Rapids", 0, NULL),
    /* ---- AMD ---- */
    ROW(AMD, 0x4, 0x03, 0x03, "Am486DX2", 0, "i486"),
    ROW(AMD, 0x4, 0x07, 0x07, "Am486DX2-WB", 0, "i486"),
    ROW(AMD, 0x4, 0x08, 0x08, "Am486DX4", 0, "i486"),
    ROW(AMD, 0x4, 0x09, 0x09, "Am486DX4-WB", 0, "i486"),
    ROW(AMD, 0x4, 0x0e, 0x0e, "Am5x86", 0, "i486"),
    ROW(AMD, 0x4, 0x0f, 0x0f, "Am5x86-WB", 0, "i486"),
    ROW(AMD, 0x5, 0x00, 0x03, "K5", 0, NULL),
    ROW(AMD, 0x5, 0x06, 0x07, "K6", 0, "k6"),
    ROW(AMD, 0x5, 0x08, 0x08, "K6-2", 0, "k6-2"),
    ROW(AMD, 0x5, 0x09, 0x09, "K6-III", 0, "k6-3"),
    ROW(AMD, 0x5, 0x0a, 0x0a, "Geode LX", 0, "geode"),
    ROW(AMD, 0x5, 0x0d, 0x0d, "K6-2+/K6-III+", 0, "k6-2"),
    ROW(AMD, 0x6, 0x01, 0x01, "K7 (Argon)", 0, "athlon"),
    ROW(AMD, 0x6, 0x02, 0x02, "K7 (Pluto/Orion)", 0, "athlon"),
    ROW(AMD, 0x6, 0x03, 0x03, "K7 (Spitfire)", 0, "athlon"),
    ROW(AMD, 0x6, 0x04, 0x04, "K7 (Thunderbird)", 0, "athlon"),
    ROW(AMD, 0x6, 0x06, 0x06, "K7 (Palomino)", 0, "athlon"),
    ROW(AMD, 0x6, 0x07, 0x07, "K7 (Morgan)", 0, "athlon"),
    ROW(AMD, 0x6, 0x08, 0x08, "K7 (Thoroughbred)", 0, "athlon"),
    ROW(AMD, 0x6, 0x0a, 0x0a, "K7 (Barton)", 0, "athlon"),
    ROW(AMD, 0xf, 0x00, 0xff, "K8", 0, "k8"),
    ROW(AMD, 0x10, 0x00, 0xff, "K10", 0, "amdfam10"),
    ROW(AMD, 0x11, 0x00, 0xff, "K8/K10 hybrid (Griffin)", 0, "k8"),
    ROW(AMD, 0x12, 0x00, 0xff, "K10 (Llano)", 0, "amdfam10"),
    ROW(AMD, 0x14, 0x00, 0xff, "Bobcat", 0, "btver1"),
    ROW(AMD, 0x15, 0x00, 0x01, "Bulldozer", 0, "bdver1"),
    ROW(AMD, 0x15, 0x02, 0x02, "Piledriver", 0, "bdver2"),
    ROW(AMD, 0x15, 0x10, 0x1f, "Piledriver", 0, "bdver2"),
    ROW(AMD, 0x15, 0x30, 0x3f, "Steamroller", 0, "bdver3"),
    ROW(AMD, 0x15, 0x60, 0x7f, "Excavator", 0, "bdver4"),
    ROW(AMD, 0x16, 0x00, 0x0f, "Jaguar", 0, "btver2"),
    ROW(AMD, 0x16, 0x30, 0x3f, "Puma", 0, "btver2"),
    ROW(AMD, 0x17, 0x01, 0x01, "Zen", 0, "znver1"),
    ROW(AMD, 0x17, 0x08, 0x08, "Zen+", 0, "znver1"),
    ROW(AMD, 0x17, 0x11, 0x11, "Zen", 0, "znver1"),
    ROW(AMD, 0x17, 0x18, 0x18, "Zen+", 0, "znver1"),
    ROW(AMD, 0x17, 0x20, 0x20, "Zen", 0, "znver1"),
    ROW(AMD, 0x17, 0x00, 0x2f, "Zen / Zen+", 0, "znver1"),
    ROW(AMD, 0x17, 0x50, 0x5f, "Zen / Zen+", 0, "znver1"),
    ROW(AMD, 0x17, 0x30, 0x4f, "Zen 2", 0, "znver2"),
    ROW(AMD, 0x17, 0x60, 0x7f, "Zen 2", 0, "znver2"),
    ROW(AMD, 0x17, 0x90, 0x91, "Zen 2", 0, "znver2"),
    ROW(AMD, 0x17, 0xa0, 0xaf, "Zen 2", 0, "znver2"),
    ROW(AMD, 0x19, 0x00, 0x0f, "Zen 3", 0, "znver3"),
    ROW(AMD, 0x19, 0x20, 0x5f, "Zen 3", 0, "znver3"),
    ROW(AMD, 0x19, 0x10, 0x1f, "Zen 4", 0, "znver4"),
    ROW(AMD, 0x19, 0x60, 0xaf, "Zen 4", 0, "znver4"),
    ROW(AMD, 0x1a, 0x00, 0x2f, "Zen 5", 0, NULL),
    ROW(AMD, 0x1a, 0x40, 0x4f, "Zen 5", 0, NULL),
    ROW(AMD, 0x1a, 0x60, 0x7f, "Zen 5", 0, NULL),
    /* ---- the others ---- */
    ROW(HYGON, 0x18, 0x00, 0x0f, "Dhyana (Zen)", 0, "znver1"),
    ROW(TRANSMETA, 0xf, 0x00, 0xff, "Efficeon", 0, NULL),
    ROW(CYRIX, 0x4, 0x04, 0x04, "MediaGX", 0, NULL),
    ROW(CYRIX, 0x4, 0x09, 0x09, "5x86", 0, NULL),
    ROW(CYRIX, 0x5, 0x02, 0x02, "6x86 (M1)", 0, NULL),
    ROW(CYRIX, 0x5, 0x04, 0x04, "MediaGX MMX (GXm)", 0, NULL),
    ROW(CYRIX, 0x6, 0x00, 0x00, "6x86MX / MII", 0, NULL),
    ROW(CYRIX, 0x6, 0x05, 0x05, "Cyrix III (Joshua)", 0, NULL),
    ROW(CENTAUR, 0x5, 0x04, 0x04, "WinChip C6", 0, "winchip-c6"),
    ROW(CENTAUR, 0x5, 0x08, 0x08, "WinChip 2", 0, "winchip2"),
    ROW(CENTAUR, 0x5, 0x09, 0x09, "WinChip 3", 0, "winchip2"),
    ROW(CENTAUR, 0x6, 0x06, 0x06, "C3 (Samuel)", 0, "c3"),
    ROW(CENTAUR, 0x6, 0x07, 0x07, "C3 (Samuel 2/Ezra)", 0, "c3"),
    ROW(CENTAUR, 0x6, 0x08, 0x08, "C3 (Ezra-T)", 0, "c3"),
    ROW(CENTAUR, 0x6, 0x09, 0x09, "C3 (Nehemiah)", 0, "c3-2"),
    ROW(CENTAUR, 0x6, 0x0a, 0x0a, "C7 (Esther)", 0, NULL),
    ROW(CENTAUR, 0x6, 0x0d, 0x0d, "C7-D (Esther)", 0, NULL),
    ROW(CENTAUR, 0x6, 0x0f, 0x0f, "Nano (Isaiah)", 0, NULL),
    ROW(CENTAUR, 0x6, 0x47, 0x47, "CNS", 0, NULL),
    ROW(CENTAUR, 0x7, 0x3b, 0x3b, "Zhaoxin KX-6000 / KX-U6780 class", 0, NULL),
    ROW(CENTAUR, 0x7, 0x5b, 0x5b, "Zhaoxin KX-40000 class", 0, NULL),
    ROW(CENTAUR, 0x7, 0x6b, 0x6b, "Zhaoxin KX-7000 class", 0, NULL),
    ROW(ZHAOXIN, 0x7, 0x3b, 0x3b, "Zhaoxin KX-6000 / KX-U6780 class", 0, NULL),
    ROW(ZHAOXIN, 0x7, 0x5b, 0x5b, "Zhaoxin KX-40000 class", 0, NULL),
    ROW(ZHAOXIN, 0x7, 0x6b, 0x6b, "Zhaoxin KX-7000 class", 0, NULL),
    ROW(TRANSMETA, 0x5, 0x04, 0x04, "Crusoe", 0, NULL),
    ROW(NEXGEN, 0x5, 0x00, 0x00, "Nx586", 0, NULL),
    ROW(UMC, 0x4, 0x01, 0x01, "U5D", 0, NULL),
    ROW(UMC, 0x4, 0x02, 0x02, "U5S", 0, NULL),
    ROW(RISE, 0x5, 0x00, 0x00, "mP6 (Kirin)", 0, NULL),
    ROW(RISE, 0x5, 0x02, 0x02, "mP6 (Lynx)", 0, NULL),
    ROW(SIS, 0x5, 0x00, 0x00, "SiS 55x", 0, NULL),
    ROW(NSC, 0x5, 0x04, 0x04, "Geode GX1", 0, "geode"),
    ROW(NSC, 0x5, 0x05, 0x05, "Geode GX2", 0, "geode"),
};

const struct cpu_model *cpu_model_lookup(enum cpu_vendor vendor, unsigned family, unsigned model,
                                         unsigned stepping, unsigned type)
{
    for (unsigned i = 0; i < sizeof models / sizeof models[0]; i++) {
        const struct cpu_model *m = &models[i];
        if (m->vendor == vendor && m->family == family && model >= m->first && model <= m->last &&
            stepping >= m->stepping_first && stepping <= m->stepping_last &&
            (m->type == CPU_ANY_TYPE || m->type == type))
            return m;
    }
    return NULL;
}

const struct cpu_model *cpu_model_of(const struct cpu_info *c)
{
    return cpu_model_lookup(c->vendor, c->family, c->model, c->stepping, c->type);
}

bool cpu_fact(const struct cpu_info *c, enum cpu_model_fact fact)
{
    const struct cpu_model *m = cpu_model_of(c);
    return m && (m->facts & fact);
}
