/* A simulated MSR file for the PMU drivers: models which PMU MSRs a family
 * has (#GP on the others), counter widths (masked writes and reads,
 * wrap-around), the enable bits of each family, and what each programmed
 * event counts when "code runs" (sim_run). Two failure modes mimic virtual
 * machines: SIM_DEAD (every PMU MSR reads 0 and ignores writes, like QEMU
 * TCG) and SIM_GP (every PMU MSR faults, like hypervisors without a vPMU). */
#ifndef CK_TEST_MSR_SIM_H
#define CK_TEST_MSR_SIM_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/msr.h"

enum sim_family { SIM_P5, SIM_P6, SIM_ARCH, SIM_AMD };
enum sim_mode { SIM_LIVE, SIM_DEAD, SIM_GP };

struct msr_sim {
    enum sim_family family;
    enum sim_mode mode;
    unsigned cpl;          /* privilege level the simulated code runs at (0 or 3) */
    /* Shape. */
    bool mmx;              /* P5: P55C events */
    unsigned version;      /* arch: perfmon version; AMD: 2 = PerfMonV2 */
    unsigned gp, gp_width, fixed, fixed_width;
    bool full_width;       /* arch: IA32_A_PMCx exist and IA32_PERF_CAPABILITIES says so */
    bool has_caps;         /* arch: IA32_PERF_CAPABILITIES exists */
    bool core_ext;         /* AMD: C001_0200 counters */
    bool fixed_frozen;     /* arch: fixed counters exist but never count (a half-done vPMU) */
    /* Registers. */
    uint64_t cesr, ctl[8], ctr[8], fixed_ctrl, fixed_ctr[4], global_ctrl;
    /* The microcode signature MSR 0x8B (any family): SIM_UCODE_INTEL keeps
     * what is written until sim_cpuid1() loads ucode_rev into bits 63:32;
     * SIM_UCODE_AMD reads ucode_rev in bits 31:0 and faults on writes. */
    enum { SIM_UCODE_NONE, SIM_UCODE_INTEL, SIM_UCODE_AMD } ucode;
    uint32_t ucode_rev;
    uint64_t sign_id;
    /* The real clock (any family): IA32_MPERF 0xE7 and IA32_APERF 0xE8
     * exist when `aperf` is set; sim_run advances APERF by the cycles and
     * MPERF by cycles * mperf_num / mperf_den (the reference rate against
     * the core's: 1/1 when the core runs at the TSC rate). SIM_DEAD reads
     * them as 0 like every other MSR, SIM_GP faults. */
    bool aperf;
    uint64_t aperf_v, mperf_v, mperf_rest;
    uint32_t mperf_num, mperf_den;
    /* What one access costs the simulated CPU: the instructions, cycles and
     * branches of the code around RDMSR/WRMSR (the driver's call, its checks,
     * the MSR path). Like on hardware, half retires before the register is
     * read or written and half after, so a counter's window spans part of its
     * own read and all of the accesses between its two reads. 0: free (the
     * default). Counted only in SIM_LIVE, by whatever is enabled then. */
    struct { uint64_t insn, cycles, branches; } access_cost;
    /* Statistics, and the accesses in order ('r', 'w'; 'c' for sim_cpuid1). */
    unsigned reads, writes, faults;
    uint32_t last_fault_msr;
    struct { char op; uint32_t msr; uint64_t value; } trace[16];
    unsigned ntrace;
    struct msr_ops ops;
};

void sim_init_p5(struct msr_sim *s, bool mmx);
void sim_init_p6(struct msr_sim *s);
void sim_init_arch(struct msr_sim *s, unsigned version, unsigned gp, unsigned gp_width,
                   unsigned fixed, unsigned fixed_width);
void sim_init_amd(struct msr_sim *s, bool core_ext);

/* The msr_ops a driver binds to (points into *s). */
const struct msr_ops *sim_ops(struct msr_sim *s);

/* CPUID leaf 1 executed (Intel: refills MSR 0x8B's revision). */
void sim_cpuid1(struct msr_sim *s);

/* Code runs: every enabled counter advances by what its event counts. */
void sim_run(struct msr_sim *s, uint64_t instructions, uint64_t cycles, uint64_t branches);

/* Direct access for tests, bypassing modes and faults (values masked to the
 * register's width). Return false for an MSR the family does not have. */
bool sim_get(struct msr_sim *s, uint32_t msr, uint64_t *v);
bool sim_set(struct msr_sim *s, uint32_t msr, uint64_t v);

#endif
