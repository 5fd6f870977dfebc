/* What CPU this is: filled once by cpu_probe() (kernel/cpu_probe.c), then
 * read-only. Every benchmark requirement and every driver choice reads it;
 * nothing else executes CPUID for identification. */
#ifndef CK_CPU_H
#define CK_CPU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpuid.h"

enum cpu_generation {
    CPU_GEN_386,          /* EFLAGS.AC cannot be toggled */
    CPU_GEN_486_NO_CPUID, /* AC toggles, EFLAGS.ID does not */
    CPU_GEN_CPUID,        /* CPUID is available */
};

enum cpu_vendor {
    VENDOR_UNKNOWN, VENDOR_INTEL, VENDOR_AMD, VENDOR_CYRIX, VENDOR_CENTAUR,
    VENDOR_NEXGEN, VENDOR_TRANSMETA, VENDOR_UMC, VENDOR_RISE, VENDOR_SIS,
    VENDOR_HYGON, VENDOR_ZHAOXIN, VENDOR_NSC, VENDOR_VORTEX, VENDOR_VIRTUAL,
};

/* Feature words: a feature is ((word << 5) | bit) + 1, so that 0 (FEAT_NONE)
 * can end a list of required features. Use cpu_has() and cpu_feature_index(). */
enum cpu_feature_word {
    FW_1_EDX, FW_1_ECX, FW_7_EBX, FW_7_ECX, FW_7_EDX,
    FW_X1_EDX, FW_X1_ECX, FW_X7_EDX, FW_COUNT
};
#define CPU_FEATURE(word, bit) ((((word) << 5) | (bit)) + 1)
enum cpu_feature {
    FEAT_NONE = 0,
    FEAT_FPU = CPU_FEATURE(FW_1_EDX, 0),
    FEAT_TSC = CPU_FEATURE(FW_1_EDX, 4),
    FEAT_MSR = CPU_FEATURE(FW_1_EDX, 5),
    FEAT_CX8 = CPU_FEATURE(FW_1_EDX, 8),
    FEAT_APIC = CPU_FEATURE(FW_1_EDX, 9),
    FEAT_CMOV = CPU_FEATURE(FW_1_EDX, 15),
    FEAT_MMX = CPU_FEATURE(FW_1_EDX, 23),
    FEAT_FXSR = CPU_FEATURE(FW_1_EDX, 24),
    FEAT_SSE = CPU_FEATURE(FW_1_EDX, 25),
    FEAT_SSE2 = CPU_FEATURE(FW_1_EDX, 26),
    FEAT_SSE3 = CPU_FEATURE(FW_1_ECX, 0),
    FEAT_PDCM = CPU_FEATURE(FW_1_ECX, 15),
    FEAT_HYPERVISOR = CPU_FEATURE(FW_1_ECX, 31),
    FEAT_SERIALIZE = CPU_FEATURE(FW_7_EDX, 14),
    FEAT_RDTSCP = CPU_FEATURE(FW_X1_EDX, 27),
    FEAT_LM = CPU_FEATURE(FW_X1_EDX, 29),
    FEAT_INVARIANT_TSC = CPU_FEATURE(FW_X7_EDX, 8),
    FEAT_PERFCTR_CORE = CPU_FEATURE(FW_X1_ECX, 23), /* AMD 0xC0010200 counters */
    FEAT_VME = CPU_FEATURE(FW_1_EDX, 1),
    FEAT_DE = CPU_FEATURE(FW_1_EDX, 2),
    FEAT_PSE = CPU_FEATURE(FW_1_EDX, 3),
    FEAT_PAE = CPU_FEATURE(FW_1_EDX, 6),
    FEAT_MCE = CPU_FEATURE(FW_1_EDX, 7),
    FEAT_SEP = CPU_FEATURE(FW_1_EDX, 11),
    FEAT_MTRR = CPU_FEATURE(FW_1_EDX, 12),
    FEAT_PGE = CPU_FEATURE(FW_1_EDX, 13),
    FEAT_PAT = CPU_FEATURE(FW_1_EDX, 16),
    FEAT_CLFLUSH = CPU_FEATURE(FW_1_EDX, 19),
    FEAT_DS = CPU_FEATURE(FW_1_EDX, 21),
    FEAT_HTT = CPU_FEATURE(FW_1_EDX, 28),
    FEAT_PCLMULQDQ = CPU_FEATURE(FW_1_ECX, 1),
    FEAT_MONITOR = CPU_FEATURE(FW_1_ECX, 3),
    FEAT_VMX = CPU_FEATURE(FW_1_ECX, 5),
    FEAT_SSSE3 = CPU_FEATURE(FW_1_ECX, 9),
    FEAT_FMA = CPU_FEATURE(FW_1_ECX, 12),
    FEAT_CX16 = CPU_FEATURE(FW_1_ECX, 13),
    FEAT_SSE4_1 = CPU_FEATURE(FW_1_ECX, 19),
    FEAT_SSE4_2 = CPU_FEATURE(FW_1_ECX, 20),
    FEAT_X2APIC = CPU_FEATURE(FW_1_ECX, 21),
    FEAT_MOVBE = CPU_FEATURE(FW_1_ECX, 22),
    FEAT_POPCNT = CPU_FEATURE(FW_1_ECX, 23),
    FEAT_TSC_DEADLINE = CPU_FEATURE(FW_1_ECX, 24),
    FEAT_AES = CPU_FEATURE(FW_1_ECX, 25),
    FEAT_XSAVE = CPU_FEATURE(FW_1_ECX, 26),
    FEAT_OSXSAVE = CPU_FEATURE(FW_1_ECX, 27),
    FEAT_AVX = CPU_FEATURE(FW_1_ECX, 28),
    FEAT_F16C = CPU_FEATURE(FW_1_ECX, 29),
    FEAT_RDRAND = CPU_FEATURE(FW_1_ECX, 30),
    FEAT_BMI1 = CPU_FEATURE(FW_7_EBX, 3),
    FEAT_HLE = CPU_FEATURE(FW_7_EBX, 4),
    FEAT_AVX2 = CPU_FEATURE(FW_7_EBX, 5),
    FEAT_BMI2 = CPU_FEATURE(FW_7_EBX, 8),
    FEAT_ERMS = CPU_FEATURE(FW_7_EBX, 9),
    FEAT_RTM = CPU_FEATURE(FW_7_EBX, 11),
    FEAT_AVX512F = CPU_FEATURE(FW_7_EBX, 16),
    FEAT_RDSEED = CPU_FEATURE(FW_7_EBX, 18),
    FEAT_ADX = CPU_FEATURE(FW_7_EBX, 19),
    FEAT_CLFLUSHOPT = CPU_FEATURE(FW_7_EBX, 23),
    FEAT_SHA = CPU_FEATURE(FW_7_EBX, 29),
    FEAT_AVX512BW = CPU_FEATURE(FW_7_EBX, 30),
    FEAT_AVX512VL = CPU_FEATURE(FW_7_EBX, 31),
    FEAT_AVX512VBMI = CPU_FEATURE(FW_7_ECX, 1),
    FEAT_GFNI = CPU_FEATURE(FW_7_ECX, 8),
    FEAT_VAES = CPU_FEATURE(FW_7_ECX, 9),
    FEAT_VPCLMULQDQ = CPU_FEATURE(FW_7_ECX, 10),
    FEAT_AVX512VNNI = CPU_FEATURE(FW_7_ECX, 11),
    FEAT_RDPID = CPU_FEATURE(FW_7_ECX, 22),
    FEAT_HYBRID = CPU_FEATURE(FW_7_EDX, 15),
    FEAT_AMX_TILE = CPU_FEATURE(FW_7_EDX, 24),
    FEAT_AVX512FP16 = CPU_FEATURE(FW_7_EDX, 23),
    FEAT_SYSCALL = CPU_FEATURE(FW_X1_EDX, 11),
    FEAT_NX = CPU_FEATURE(FW_X1_EDX, 20),
    FEAT_MMXEXT = CPU_FEATURE(FW_X1_EDX, 22),
    FEAT_3DNOWEXT = CPU_FEATURE(FW_X1_EDX, 30),
    FEAT_3DNOW = CPU_FEATURE(FW_X1_EDX, 31),
    FEAT_LAHF_LM = CPU_FEATURE(FW_X1_ECX, 0),
    FEAT_SVM = CPU_FEATURE(FW_X1_ECX, 2),
    FEAT_ABM = CPU_FEATURE(FW_X1_ECX, 5),
    FEAT_SSE4A = CPU_FEATURE(FW_X1_ECX, 6),
    FEAT_XOP = CPU_FEATURE(FW_X1_ECX, 11),
    FEAT_FMA4 = CPU_FEATURE(FW_X1_ECX, 16),
    FEAT_TOPOEXT = CPU_FEATURE(FW_X1_ECX, 22),
};

/* Every CPUID leaf read, raw, so a log can be decoded again on the host. */
struct cpuid_leaf_raw {
    uint32_t leaf, subleaf;
    struct cpuid_regs r;
};
#define CPU_RAW_MAX 128

enum cache_kind { CACHE_DATA = 1, CACHE_INSN = 2, CACHE_UNIFIED = 3, CACHE_TLB_DATA = 4,
                  CACHE_TLB_INSN = 5, CACHE_TLB_UNIFIED = 6 };
struct cache_desc {
    uint8_t kind;        /* enum cache_kind */
    uint8_t level;       /* 1, 2, 3 ... */
    uint16_t ways;       /* 0 = unknown, 0xffff = fully associative */
    uint32_t size;       /* bytes for caches, entries for TLBs */
    uint32_t line;       /* bytes (caches), page size in KiB (TLBs) */
};
#define CPU_CACHES_MAX 24

struct cpu_info {
    enum cpu_generation generation;
    bool has_fpu;
    enum cpu_vendor vendor;
    char vendor_string[13];     /* "" without CPUID */
    uint32_t max_leaf, max_ext_leaf, max_hv_leaf; /* 0 when absent */
    unsigned family, model, stepping, type; /* display family/model */
    char brand[49];             /* "" when absent */
    char name[64];              /* microarchitecture / product, or "unknown (family F, model M)";
                                   the features' name where they contradict the model number
                                   (cpu_core.h) */
    uint8_t named_by;           /* enum cpu_named_by (cpu_core.h): how name was decided */
    uint32_t core_fits;         /* the cores (cpu_core_classes) the features fit, bit i each,
                                   where they contradict the model number; else 0 */
    uint32_t features[FW_COUNT];
    char hv_vendor[13];         /* hypervisor vendor string, "" when none */
    struct {                    /* CPUID 0xA */
        unsigned version, gp_counters, gp_width, fixed_counters, fixed_width;
        uint32_t unavailable_events; /* EBX bit vector: 1 = not available */
    } perfmon;
    struct {                    /* CPUID 0x15 / 0x16 (0 when absent) */
        uint32_t ratio_den, ratio_num, crystal_hz;
        uint32_t base_mhz, max_mhz, bus_mhz;
    } clock;
    struct cache_desc caches[CPU_CACHES_MAX];
    unsigned ncaches;
    struct cpuid_leaf_raw raw[CPU_RAW_MAX];
    unsigned nraw;
};

/* The identified CPU (valid after cpu_probe()). */
extern const struct cpu_info *const cpu;

/* Word and bit of a feature. */
static inline unsigned cpu_feature_word(enum cpu_feature f) { return ((unsigned)f - 1) >> 5; }
static inline unsigned cpu_feature_bit(enum cpu_feature f) { return ((unsigned)f - 1) & 31; }

static inline bool cpu_has(const struct cpu_info *c, enum cpu_feature f)
{
    return f != FEAT_NONE && ((c->features[cpu_feature_word(f)] >> cpu_feature_bit(f)) & 1);
}

/* ---- Probing --------------------------------------------------------------
 * The probe never touches the hardware itself: it goes through these ops, so
 * the host unit tests drive it with simulated EFLAGS behaviour and recorded
 * CPUID dumps. Each platform gives its own (struct platform cpu_ops). */
#define CPU_EXT_RANGE_LIMIT 0x800000ffu /* a larger 0x80000000 EAX is not a maximum */
#define CPU_HV_RANGE_LIMIT 0x400000ffu
#define EFLAGS_AC (1u << 18) /* alignment check: cannot be toggled on a 386 */
#define EFLAGS_ID (1u << 21) /* toggles only where CPUID exists */

struct cpu_probe_ops {
    bool (*eflags_toggles)(uint32_t mask); /* can these EFLAGS bits be flipped? */
    bool (*fpu_present)(void);             /* FNINIT/FNSTSW/FNSTCW answers like an x87 */
    struct cpuid_regs (*cpuid)(uint32_t leaf, uint32_t subleaf);
    uint64_t (*rdtsc)(void);               /* RDTSC (NULL: not offered) */
    uint64_t (*xgetbv)(uint32_t xcr);      /* XGETBV (NULL: not offered); called only
                                              where CPUID.1:ECX.OSXSAVE is set */
};

/* ---- The XSAVE state the OS enabled (SDM Vol. 1 §13.3, Vol. 3A §2.6) ----
 * Read after the platform's setup: CPUID.1:ECX.OSXSAVE[bit 27] mirrors
 * CR4.OSXSAVE, so leaf 1 is read again; XGETBV(0) is allowed at any
 * privilege once CR4.OSXSAVE is set (SDM Vol. 2C, XGETBV). */
#define XCR0_X87 (1ull << 0)
#define XCR0_SSE (1ull << 1)
#define XCR0_AVX (1ull << 2)
#define XCR0_AVX512 (7ull << 5) /* opmask, ZMM_Hi256, Hi16_ZMM: all or none */
struct cpu_xstate {
    bool osxsave;          /* CPUID.1:ECX.OSXSAVE after the setup */
    bool known;            /* xcr0 was read */
    uint64_t xcr0;
    uint64_t supported;    /* CPUID.(EAX=0DH,ECX=0):EDX:EAX; 0 when not read */
    const char *reason;    /* why xcr0 is unknown (when !known) */
};
/* The state of this run (valid after cpu_xstate_probe; zero before). */
extern const struct cpu_xstate *const cpu_xstate;
void cpu_xstate_probe(void);
void cpu_xstate_read(const struct cpu_info *c, const struct cpu_probe_ops *ops,
                     struct cpu_xstate *x);
/* VEX-encoded (AVX, AVX2, FMA) instructions usable: XCR0.SSE and XCR0.AVX
 * set by the OS (SDM Vol. 1 §14.3 "Detection of Intel AVX instructions"). */
static inline bool cpu_xstate_avx_on(const struct cpu_xstate *x)
{
    return x->known && x->osxsave && (x->xcr0 & (XCR0_SSE | XCR0_AVX)) == (XCR0_SSE | XCR0_AVX);
}

/* The TSC read once before identification (the run id): false where ops
 * offer no rdtsc, there is no CPUID or CPUID leaf 1 reports no TSC. */
bool cpu_first_tsc(const struct cpu_probe_ops *ops, uint64_t *tsc);

/* Identify the CPU this runs on and fill the global `cpu` (platform ops). */
void cpu_probe(void);
/* The same with other ops (the unit tests, the hosted runner). */
void cpu_probe_platform(const struct cpu_probe_ops *ops);
/* Fills *c from scratch: EFLAGS/FPU tests, then every CPUID leaf it reads,
 * each checked against its range's maximum, recorded in c->raw, decoded. */
void cpu_probe_with(struct cpu_info *c, const struct cpu_probe_ops *ops);

/* ---- Decoding (pure: works on c->raw only, so a log decodes again) ---- */
/* Decodes everything from c->raw[0..nraw); generation and has_fpu of a CPU
 * without CPUID are kept as they are. */
void cpu_decode(struct cpu_info *c);
/* A raw-leaf table (e.g. parsed back from a log) into a decoded cpu_info. */
void cpu_decode_raw(struct cpu_info *c, const struct cpuid_leaf_raw *raw, unsigned n);
const struct cpuid_regs *cpu_raw_find(const struct cpu_info *c, uint32_t leaf,
                                      uint32_t subleaf);

/* Names. */
enum cpu_vendor cpu_vendor_from_string(const char *vendor12);
const char *cpu_vendor_name(enum cpu_vendor v);         /* "Intel", "AMD" ... */
const char *cpu_hypervisor_name(const char *hv_vendor); /* "KVM", ... or NULL */
/* QEMU's TCG (its CPUID hypervisor signature "TCGTCGTCGTCG"): an emulator,
 * whose clocks follow host time (or the instruction count under -icount). */
bool cpu_is_qemu_tcg(const struct cpu_info *c);
const char *cpu_generation_name(enum cpu_generation g);
const char *cpu_feature_name(unsigned word, unsigned bit); /* NULL: unnamed bit */
const char *cpu_feature_word_name(unsigned word);          /* "1.edx" ... */
void cpu_decode_name(struct cpu_info *c); /* fills c->name from vendor/family/model */
/* Per-vendor tables: NULL when the model is not known (never a guess). */

/* Caches and TLBs from leaf 2, leaf 4, 0x8000001D and 0x80000005/6. */
void cpu_decode_caches(struct cpu_info *c);
/* One leaf-2 descriptor byte: appends what it describes; returns how many
 * entries it added (0 for null/prefetch/unknown descriptors). */
unsigned cpu_leaf2_descriptor(struct cpu_info *c, uint8_t desc);
const char *cpu_cache_kind_name(enum cache_kind k);

#endif
