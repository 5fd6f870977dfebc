/* MSR numbers and bits of the performance counters, with their sources.
 * Private to kernel/pmu (the unit-test simulator includes it too, so the
 * simulator and the drivers cannot disagree on a number by a typo; the
 * simulator's semantics are written independently). */
#ifndef CK_PMU_MSR_H
#define CK_PMU_MSR_H

/* P5 (Pentium, family 5). Intel SDM vol. 3B §18.23 "Pentium processor
 * performance monitoring" (CESR bit layout, Figure 18-61); [AP] (Intel AP
 * note "Survey of Pentium Processor Performance Monitoring": MSR 10h-13h,
 * counters 40 bits); [TT] (TalkieToaster 1996: CESR fields 16 bits each,
 * counter 1 in bits 16-31). */
#define MSR_P5_CESR 0x11u
#define MSR_P5_CTR0 0x12u
#define MSR_P5_CTR1 0x13u
#define P5_WIDTH 40
#define P5_FIELD_SHIFT(c) ((c) * 16u) /* ES1/CC1/PC1 at bits 16-25 */
#define P5_ES_MASK 0x3fu              /* event select, bits 0-5 */
#define P5_CC_CPL012 0x40u            /* CC bit 0: count at CPL 0, 1, 2 */
#define P5_CC_CPL3 0x80u              /* CC bit 1: count at CPL 3 */
#define P5_CC_CLOCKS 0x100u           /* CC bit 2: count clocks (duration) instead of events */
#define P5_PC 0x200u                  /* pin control, left 0 */
#define P5_FIELD_MASK 0x3ffu

/* P6 family (Pentium Pro, II, III, M). SDM vol. 3B §18.22 and vol. 4 Table
 * "MSRs in the P6 family": PerfEvtSel0/1 186h/187h, PerfCtr0/1 C1h/C2h,
 * 40-bit counters; EN (bit 22) exists only in PerfEvtSel0 and enables both
 * counters. Writes set bits 31:0 and sign-extend into 39:32 (SDM §18.22.2). */
#define MSR_P6_EVNTSEL0 0x186u
#define MSR_P6_EVNTSEL1 0x187u
#define MSR_P6_PERFCTR0 0xC1u
#define MSR_P6_PERFCTR1 0xC2u
#define P6_WIDTH 40

/* PerfEvtSel layout shared by P6, Intel architectural perfmon and AMD
 * (SDM vol. 3B Figure 18-6 / 18-60; AMD APM vol. 2 §13.2 "PerfEvtSeln"). */
#define EVTSEL_EVENT_MASK 0xffu
#define EVTSEL_UMASK_SHIFT 8
#define EVTSEL_USR (1u << 16)
#define EVTSEL_OS (1u << 17)
#define EVTSEL_EDGE (1u << 18)
#define EVTSEL_INT (1u << 20)
#define EVTSEL_EN (1u << 22)
#define EVTSEL_INV (1u << 23)
#define EVTSEL_CMASK_SHIFT 24
#define AMD_EVTSEL_EVENT_HI_SHIFT 32 /* EventSelect[11:8] in bits 35:32 (family 10h+) */

/* Intel architectural performance monitoring (CPUID leaf 0AH). SDM vol. 3B
 * §18.2 and vol. 4 Table 2-2: IA32_PMCx C1h+, IA32_PERFEVTSELx 186h+,
 * IA32_FIXED_CTR0-2 309h-30Bh ([BG]: CTR0 309h instructions retired,
 * 30Ah unhalted core cycles, 30Bh reference cycles; 38Dh |= 0x333 enables
 * the three), IA32_FIXED_CTR_CTRL 38Dh (4 bits per counter: bit 0 OS,
 * bit 1 USR, bit 2 AnyThread, bit 3 PMI), IA32_PERF_GLOBAL_CTRL 38Fh from
 * version 2 (bits 0..n-1 general, 32.. fixed; post-RESET value has the
 * general bits set, SDM as quoted in Linux commit de120e1d692d).
 * IA32_A_PMCx 4C1h+ accept full-width writes when IA32_PERF_CAPABILITIES
 * (345h, present when CPUID.1:ECX.PDCM) bit 13 FW_WRITE is set (Linux
 * PMU_CAP_FW_WRITES = bit 13, arch/x86/kvm/vmx/capabilities.h). Fixed
 * counter 3 (30Ch, topdown slots) arrives with version 5 (Ice Lake). */
#define MSR_IA32_PMC0 0xC1u
#define MSR_IA32_PERFEVTSEL0 0x186u
#define MSR_IA32_FIXED_CTR0 0x309u
#define MSR_IA32_PERF_CAPABILITIES 0x345u
#define MSR_IA32_FIXED_CTR_CTRL 0x38Du
#define MSR_IA32_PERF_GLOBAL_STATUS 0x38Eu
#define MSR_IA32_PERF_GLOBAL_CTRL 0x38Fu
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x390u
#define MSR_IA32_A_PMC0 0x4C1u
#define PERF_CAP_FW_WRITE (1u << 13)
#define FIXED_CTRL_OS 0x1u
#define FIXED_CTRL_USR 0x2u
#define FIXED_CTRL_FIELD(i) (0xfull << (4u * (i)))

/* AMD. APM vol. 2 §13.2.1 and BKDG for family 10h/15h: PerfEvtSel0-3
 * C001_0000-3, PerfCtr0-3 C001_0004-7, 48-bit counters (K7 onwards). Family
 * 15h+ with CPUID 8000_0001:ECX bit 23 (PerfCtrExtCore): six counters,
 * PERF_CTL i at C001_0200 + 2i, PERF_CTR i at C001_0201 + 2i (the legacy
 * addresses alias the first four; Linux MSR_F15H_PERF_CTL/CTR). PerfMonV2
 * (CPUID 8000_0022:EAX bit 0, Zen 4): PerfCntrGlobalCtl C000_0301 (Linux
 * MSR_AMD64_PERF_CNTR_GLOBAL_CTL), EBX[3:0] = number of core counters. */
#define MSR_K7_EVNTSEL0 0xC0010000u
#define MSR_K7_PERFCTR0 0xC0010004u
#define MSR_F15H_PERF_CTL0 0xC0010200u
#define MSR_F15H_PERF_CTR0 0xC0010201u
#define MSR_AMD_PERF_GLOBAL_STATUS 0xC0000300u
#define MSR_AMD_PERF_GLOBAL_CTL 0xC0000301u
#define AMD_WIDTH 48

#include "pmu.h"

/* The PerfEvtSel bits of a request, without EN (P6, arch, AMD low 32 bits). */
static inline uint64_t pmu_evtsel_bits(const struct pmu_eventsel *ev)
{
    unsigned fl = ev->flags;
    if (!(fl & (PMU_OS | PMU_USR)))
        fl |= PMU_OS | PMU_USR;
    uint64_t v = (uint64_t)(ev->code & EVTSEL_EVENT_MASK) |
                 ((uint64_t)ev->umask << EVTSEL_UMASK_SHIFT) |
                 ((uint64_t)ev->cmask << EVTSEL_CMASK_SHIFT);
    if (fl & PMU_USR)
        v |= EVTSEL_USR;
    if (fl & PMU_OS)
        v |= EVTSEL_OS;
    if (fl & PMU_EDGE)
        v |= EVTSEL_EDGE;
    if (fl & PMU_INV)
        v |= EVTSEL_INV;
    return v;
}

/* Fills one entry of a driver's MSR list. */
static inline void pmu_list_entry(struct pmu_saved_msr *s, uint32_t msr, uint32_t write_msr,
                                  uint8_t flags, unsigned width, unsigned counter)
{
    s->msr = msr;
    s->write_msr = write_msr;
    s->flags = flags;
    s->width = (uint8_t)width;
    s->counter = (uint8_t)counter;
    s->status = 0;
    s->value = 0;
}

#endif
