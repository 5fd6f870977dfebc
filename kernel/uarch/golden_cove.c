/* Golden Cove and its derivative Raptor Cove, the P-cores of Alder Lake,
 * Raptor Lake, Sapphire Rapids and Emerald Rapids (Intel's optimization
 * reference manual; the models from Linux arch/x86/include/asm/intel-family.h).
 *
 * Measured values, cited (tags of docs/references.md): [IX1] InstLatX64
 * Alder Lake big core, GenuineIntel0090672_AlderLake_01_BC_AVX512_InstLatX64.txt;
 * [IX2] Raptor Lake big core, GenuineIntel00B0671_RaptorLake_01_BC; [U1]-[U3]
 * uops.info (DIV r64, DIV r32, MUL r32); [MC] McCalpin, Intel forum "High
 * impact of rdtsc". Where no published value exists, none is stated: the
 * benchmark prints "no expectation". */
#include "uarch.h"

#define IX1 "measured on silicon, cited: [IX1] InstLatX64 Alder Lake big core (docs/references.md)"
#define U "measured on silicon, cited: [U1]-[U3] uops.info, Alder Lake-P (docs/references.md)"
#define MC "measured on silicon, cited: [MC] McCalpin, Intel forum (docs/references.md)"

static const struct uarch_range golden_cove_ranges[] = {
    UARCH_MODELS(INTEL, 0x6, 0x8f, 0x8f), /* Sapphire Rapids */
    UARCH_MODELS(INTEL, 0x6, 0x97, 0x97), /* Alder Lake */
    UARCH_MODELS(INTEL, 0x6, 0x9a, 0x9a), /* Alder Lake (mobile) */
    UARCH_MODELS(INTEL, 0x6, 0xb7, 0xb7), /* Raptor Lake */
    UARCH_MODELS(INTEL, 0x6, 0xba, 0xba), /* Raptor Lake (mobile) */
    UARCH_MODELS(INTEL, 0x6, 0xbf, 0xbf), /* Raptor Lake-S */
    UARCH_MODELS(INTEL, 0x6, 0xcf, 0xcf), /* Emerald Rapids */
};

static const struct uarch_expect golden_cove_table[] = {
    /* ADD r64,r64 L 0.99 [IX1]. */
    EXPECT("calib/add_chain", 1.00, IX1),
    /* ADD L 0.99, T 0.2 [IX1]; per /tput body (4 chains) 1.00: with 4 chains
     * a 1-cycle instruction cannot go below 0.25 per instruction even where
     * the core issues 5 a cycle, and the loop's own DEC/JNZ share the ALU
     * ports, hence the wider tolerance. */
    EXPECT_TOL("lat/add", 1.00, 0.05, IX1),
    EXPECT_TOL("lat/add/tput", 1.00, 0.24, IX1),
    /* IMUL r64,r64 L 2.98, T 0.996 [IX1]: 4 chains, 4 x 1.00 per body. */
    EXPECT("lat/imul", 3.00, IX1),
    EXPECT("lat/imul/tput", 4.00, IX1),
    /* MUL r32 lat 3-4 [U3]: the chain through EAX sees the 4. uops.info's
     * T 1.00 is for MUL alone; with the MOV the /tput body is no published
     * measurement, so none is stated. */
    EXPECT("lat/mul", 4.00, U),
    /* DIV r32: L 14.93, T 5.975 with a full-width dividend [IX1]; uops.info
     * gives lat 10-15 over its operand values, T 6.00 [U2]. A 32-bit
     * quotient is the slow end, so the latency is [IX1]'s. */
    EXPECT("lat/div", 14.93, IX1),
    EXPECT_TOL("lat/div/tput", 6.00, 0.60, U),
    /* ADD r64 L 0.99, IMUL r64,r64 L 2.98 [IX1]. */
    EXPECT_TOL("lat64/add", 1.00, 0.05, IX1),
    EXPECT("lat64/imul", 3.00, IX1),
    /* CPUID: leaf 0 L 122.60 [IX1] (with the mov/xor pair); leaf 1 [IX1]
     * 1476.14, [IX2] 1419.95; x2 and x3 are 2 and 3 times leaf 0. */
    EXPECT_TOL("sys/cpuid/leaf_0", 122.78, 12.28, IX1),
    EXPECT_TOL("sys/cpuid/leaf_1", 1448.00, 160.00, IX1),
    EXPECT_TOL("sys/cpuid/x2", 245.20, 24.52, IX1),
    EXPECT_TOL("sys/cpuid/x3", 367.80, 36.78, IX1),
    /* RDTSC T 25.89 [IX1], 25.97 [IX2]; RDTSCP is not in InstLatX64: 25-35 [MC]. */
    EXPECT("sys/rdtsc", 25.89, IX1),
    EXPECT_TOL("sys/rdtscp", 30.00, 5.00, MC),
    /* LFENCE 11.95 ([IX2] 11.97), MFENCE 38.02, SERIALIZE T 104.92 [IX1]. */
    EXPECT("sys/lfence", 11.95, IX1),
    EXPECT("sys/mfence", 38.02, IX1),
    EXPECT("sys/serialize", 104.92, IX1),
};

UARCH(golden_cove, .name = "Golden Cove",
      .covers = "Golden Cove / Raptor Cove P-cores: Alder, Raptor Lake; Sapphire, Emerald Rapids");
