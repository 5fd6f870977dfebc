/* Feature bit names, one table per feature word of cpu.h.
 * Bit meanings: Intel SDM Vol. 2A, CPUID, tables "Feature Information
 * Returned in the ECX/EDX Register" and leaf 07H; AMD APM Vol. 3, Appendix E
 * (Fn8000_0001 ECX/EDX, Fn8000_0007 EDX). Names follow the lower-case style
 * of Linux's /proc/cpuinfo where one exists, so logs compare easily.
 * NULL marks reserved bits and, in 0x80000001 EDX, the bits that only mirror
 * leaf 1 EDX on AMD (they would otherwise appear twice). */
#include "cpu.h"

static const char *const names_1_edx[32] = {
    "fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce",
    "cx8", "apic", NULL, "sep", "mtrr", "pge", "mca", "cmov",
    "pat", "pse36", "psn", "clflush", NULL, "ds", "acpi", "mmx",
    "fxsr", "sse", "sse2", "ss", "htt", "tm", "ia64", "pbe",
};

static const char *const names_1_ecx[32] = {
    "sse3", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est",
    "tm2", "ssse3", "cnxt_id", "sdbg", "fma", "cx16", "xtpr", "pdcm",
    NULL, "pcid", "dca", "sse4_1", "sse4_2", "x2apic", "movbe", "popcnt",
    "tsc_deadline_timer", "aes", "xsave", "osxsave", "avx", "f16c", "rdrand", "hypervisor",
};

static const char *const names_7_ebx[32] = {
    "fsgsbase", "tsc_adjust", "sgx", "bmi1", "hle", "avx2", "fdp_excptn_only", "smep",
    "bmi2", "erms", "invpcid", "rtm", "rdt_m", "zero_fcs_fds", "mpx", "rdt_a",
    "avx512f", "avx512dq", "rdseed", "adx", "smap", "avx512ifma", NULL, "clflushopt",
    "clwb", "intel_pt", "avx512pf", "avx512er", "avx512cd", "sha_ni", "avx512bw", "avx512vl",
};

static const char *const names_7_ecx[32] = {
    "prefetchwt1", "avx512vbmi", "umip", "pku", "ospke", "waitpkg", "avx512_vbmi2", "cet_ss",
    "gfni", "vaes", "vpclmulqdq", "avx512_vnni", "avx512_bitalg", "tme", "avx512_vpopcntdq",
    NULL,
    "la57", NULL, NULL, NULL, NULL, NULL, "rdpid", "kl",
    "bus_lock_detect", "cldemote", NULL, "movdiri", "movdir64b", "enqcmd", "sgx_lc", "pks",
};

static const char *const names_7_edx[32] = {
    NULL, "sgx_keys", "avx512_4vnniw", "avx512_4fmaps", "fsrm", "uintr", NULL, NULL,
    "avx512_vp2intersect", "srbds_ctrl", "md_clear", "rtm_always_abort", NULL,
    "tsx_force_abort", "serialize", "hybrid",
    "tsxldtrk", NULL, "pconfig", "arch_lbr", "ibt", NULL, "amx_bf16", "avx512_fp16",
    "amx_tile", "amx_int8", "spec_ctrl", "stibp", "flush_l1d", "arch_capabilities",
    "core_capabilities", "ssbd",
};

static const char *const names_x1_edx[32] = {
    [11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext", [25] = "fxsr_opt",
    [26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm", [30] = "3dnowext", [31] = "3dnow",
};

static const char *const names_x1_ecx[32] = {
    "lahf_lm", "cmp_legacy", "svm", "extapic", "cr8_legacy", "abm", "sse4a", "misalignsse",
    "3dnowprefetch", "osvw", "ibs", "xop", "skinit", "wdt", NULL, "lwp",
    "fma4", "tce", NULL, "nodeid_msr", NULL, "tbm", "topoext", "perfctr_core",
    "perfctr_nb", NULL, "bpext", "ptsc", "perfctr_llc", "mwaitx", NULL, NULL,
};

/* AMD APM Vol. 3, CPUID Fn8000_0007_EDX (Intel defines only bit 8). */
static const char *const names_x7_edx[32] = {
    [0] = "ts", [1] = "fid", [2] = "vid", [3] = "ttp", [4] = "tm_hw", [6] = "100mhzsteps",
    [7] = "hwpstate", [8] = "invariant_tsc", [9] = "cpb", [10] = "eff_freq_ro",
};

static const char *const *const tables[FW_COUNT] = {
    [FW_1_EDX] = names_1_edx,   [FW_1_ECX] = names_1_ecx,   [FW_7_EBX] = names_7_ebx,
    [FW_7_ECX] = names_7_ecx,   [FW_7_EDX] = names_7_edx,   [FW_X1_EDX] = names_x1_edx,
    [FW_X1_ECX] = names_x1_ecx, [FW_X7_EDX] = names_x7_edx,
};

static const char *const word_names[FW_COUNT] = {
    [FW_1_EDX] = "1.edx",          [FW_1_ECX] = "1.ecx",          [FW_7_EBX] = "7.ebx",
    [FW_7_ECX] = "7.ecx",          [FW_7_EDX] = "7.edx",          [FW_X1_EDX] = "80000001.edx",
    [FW_X1_ECX] = "80000001.ecx",  [FW_X7_EDX] = "80000007.edx",
};

const char *cpu_feature_name(unsigned word, unsigned bit)
{
    if (word >= FW_COUNT || bit >= 32)
        return NULL;
    return tables[word][bit];
}

const char *cpu_feature_word_name(unsigned word)
{
    return word < FW_COUNT ? word_names[word] : "?";
}
