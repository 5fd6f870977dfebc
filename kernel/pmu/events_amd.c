/* AMD core events (K7 onwards). The codes below keep their meaning from the
 * Athlon to Zen for retirement and cycles; cache events changed meaning
 * over the families (the description says which family they describe).
 *
 * Sources: AMD Athlon Processor x86 Code Optimization Guide (22007), appendix
 * "Performance-Monitoring Counters" and BKDG for AMD family 10h/15h
 * (PMCx076 CPU clocks not halted, PMCx0C0 retired instructions, PMCx0C1
 * retired uops, PMCx0C2 retired branches, PMCx0C3 retired mispredicted
 * branches, PMCx0C4 retired taken branches, PMCx0C5 retired taken
 * mispredicted, PMCx040-044 data cache, PMCx080/081 instruction cache);
 * PPR for family 17h (same retirement codes); cross-checked against
 * OProfile's events/i386/athlon list and Linux KVM selftests
 * (AMD_ZEN_CORE_CYCLES 76H, AMD_ZEN_INSTRUCTIONS_RETIRED C0H,
 * AMD_ZEN_BRANCHES_RETIRED C2H, AMD_ZEN_BRANCHES_MISPREDICTED C3H). */
#include "pmu.h"

#define EV(code, umask, nm, ds) { nm, code, umask, 0, 0, -1, ds }
#define MOESI 0x1F

const struct pmu_event pmu_events_amd[] = {
    EV(0x76, 0, "CPU_CLK_UNHALTED", "core clocks not halted"),
    EV(0xC0, 0, "RETIRED_INSTRUCTIONS", "instructions retired (with exceptions and interrupts)"),
    EV(0xC1, 0, "RETIRED_UOPS", "micro-ops (macro-ops on K8+, ops on Zen) retired"),
    EV(0xC2, 0, "RETIRED_BRANCHES", "branch instructions retired"),
    EV(0xC3, 0, "RETIRED_BRANCHES_MISPREDICTED", "mispredicted branches retired"),
    EV(0xC4, 0, "RETIRED_TAKEN_BRANCHES", "taken branches retired"),
    EV(0xC5, 0, "RETIRED_TAKEN_BRANCHES_MISPREDICTED", "taken mispredicted branches retired (K7-15h)"),
    EV(0xC6, 0, "RETIRED_FAR_CONTROL_TRANSFERS", "far control transfers retired (K7-15h)"),
    EV(0xC7, 0, "RETIRED_RESYNCS", "resyncs retired (K7-15h)"),
    EV(0xCD, 0, "INTERRUPTS_MASKED_CYCLES", "cycles with interrupts masked"),
    EV(0xCE, 0, "INTERRUPTS_MASKED_PENDING_CYCLES", "cycles with interrupts masked and one pending"),
    EV(0xCF, 0, "INTERRUPTS_TAKEN", "hardware interrupts taken"),
    EV(0x40, 0, "DATA_CACHE_ACCESSES", "L1 data cache accesses"),
    EV(0x41, 0, "DATA_CACHE_MISSES", "L1 data cache misses (K7-15h)"),
    EV(0x42, MOESI, "DATA_CACHE_REFILLS_FROM_L2", "L1 data refills from L2 (K7-15h)"),
    EV(0x43, MOESI, "DATA_CACHE_REFILLS_FROM_SYSTEM", "L1 data refills from memory (K7-15h)"),
    EV(0x44, MOESI, "DATA_CACHE_WRITEBACKS", "L1 data cache write-backs (K7-15h)"),
    EV(0x45, 0, "L1_DTLB_MISS_L2_HIT", "L1 DTLB misses that hit the L2 DTLB (K7-15h)"),
    EV(0x46, 0, "L1_AND_L2_DTLB_MISS", "DTLB misses in both levels (K7-15h)"),
    EV(0x47, 0, "MISALIGNED_DATA_REFERENCES", "misaligned data references (K7-15h)"),
    EV(0x80, 0, "INSTRUCTION_CACHE_FETCHES", "instruction cache fetches (K7-15h)"),
    EV(0x81, 0, "INSTRUCTION_CACHE_MISSES", "instruction cache misses (K7-15h)"),
    EV(0x84, 0, "L1_ITLB_MISS_L2_HIT", "L1 ITLB misses that hit the L2 ITLB (K7-15h)"),
    EV(0x85, 0, "L1_AND_L2_ITLB_MISS", "ITLB misses in both levels (K7-15h)"),
};

const unsigned pmu_events_amd_count = sizeof pmu_events_amd / sizeof pmu_events_amd[0];
