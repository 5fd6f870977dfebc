/* Recorded CPUID dumps and a simulated CPU that answers from them.
 *
 * The simulator also polices the probe: a read above the maximum of its range
 * (standard: leaf 0 EAX; extended: 0x80000000 EAX; hypervisor: 0x40000000
 * EAX, and that range only when CPUID.1:ECX[31] is set), a leaf-7 subleaf
 * above 7.0:EAX, or a leaf-4/0xB/0x1F/0x8000001D subleaf after the terminating
 * entry is counted as a violation and the first one is remembered. */
#ifndef CK_TEST_CPU_DUMP_H
#define CK_TEST_CPU_DUMP_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cpu/cpu.h"

struct dump_leaf {
    uint32_t leaf, subleaf, eax, ebx, ecx, edx;
};

struct cpu_dump {
    const char *source; /* path in github.com/InstLatx64/InstLatx64 (or "synthetic: ...") */
    const struct dump_leaf *leaves;
    unsigned n;
};

static struct cpu_sim {
    const struct cpu_dump *dump;
    bool ac_toggles, id_toggles, fpu;
    unsigned eflags_tests, fpu_tests, reads, violations;
    char first_violation[128];
} sim;

static inline const struct dump_leaf *sim_find(uint32_t leaf, uint32_t subleaf)
{
    for (unsigned i = 0; i < sim.dump->n; i++)
        if (sim.dump->leaves[i].leaf == leaf && sim.dump->leaves[i].subleaf == subleaf)
            return &sim.dump->leaves[i];
    return NULL;
}

static inline struct cpuid_regs sim_regs(const struct dump_leaf *d)
{
    struct cpuid_regs r = { 0, 0, 0, 0 };
    if (d) {
        r.eax = d->eax;
        r.ebx = d->ebx;
        r.ecx = d->ecx;
        r.edx = d->edx;
    }
    return r;
}

/* A missing in-range leaf or subleaf reads as zeros (Intel SDM: "0 is
 * returned in all the registers"), which is also how dump tools that omit
 * terminating subleaves are meant to be read. */
static inline struct cpuid_regs sim_value(uint32_t leaf, uint32_t subleaf)
{
    return sim_regs(sim_find(leaf, subleaf));
}

/* Subleaves of an enumerating leaf must stop at the first terminator. */
static inline bool sim_subleaf_reachable(uint32_t leaf, uint32_t subleaf)
{
    for (uint32_t s = 0; s < subleaf; s++) {
        struct cpuid_regs r = sim_value(leaf, s);
        bool end = leaf == 0xb || leaf == 0x1f ? ((r.ecx >> 8) & 0xff) == 0 : (r.eax & 0x1f) == 0;
        if (end)
            return false;
    }
    return true;
}

static inline const char *sim_check(uint32_t leaf, uint32_t subleaf)
{
    uint32_t basic_max = sim_value(0, 0).eax;
    if (leaf < 0x40000000) {
        if (leaf > basic_max)
            return "standard leaf above leaf 0 EAX";
        if (leaf == 7 && subleaf > sim_value(7, 0).eax)
            return "leaf 7 subleaf above 7.0:EAX";
        if ((leaf == 4 || leaf == 0xb || leaf == 0x1f) && !sim_subleaf_reachable(leaf, subleaf))
            return "subleaf after the terminating entry";
        return NULL;
    }
    if (leaf <= 0x4fffffff) {
        if (basic_max < 1 || !((sim_value(1, 0).ecx >> 31) & 1))
            return "hypervisor leaf read without CPUID.1:ECX[31]";
        if (leaf != 0x40000000 && leaf > sim_value(0x40000000, 0).eax)
            return "hypervisor leaf above 0x40000000 EAX";
        return NULL;
    }
    if (leaf >= 0x80000000 && leaf <= 0x8fffffff) {
        if (leaf == 0x80000000)
            return NULL;
        const struct dump_leaf *x0 = sim_find(0x80000000, 0);
        if (!x0 || x0->eax < 0x80000000 || leaf > x0->eax)
            return "extended leaf above 0x80000000 EAX";
        if (leaf == 0x8000001d && !sim_subleaf_reachable(leaf, subleaf))
            return "subleaf after the terminating entry";
        return NULL;
    }
    return "leaf outside every range";
}

static inline struct cpuid_regs sim_cpuid(uint32_t leaf, uint32_t subleaf)
{
    sim.reads++;
    const char *why = sim_check(leaf, subleaf);
    if (why) {
        if (!sim.violations++)
            snprintf(sim.first_violation, sizeof sim.first_violation, "%s: 0x%x.%u (%s)", why,
                     leaf, subleaf, sim.dump->source);
        /* Intel: out-of-range leaves return the highest basic leaf's data. */
        return sim_value(sim_value(0, 0).eax, 0);
    }
    const struct dump_leaf *d = sim_find(leaf, subleaf);
    if (!d && leaf == 0x80000000)
        return sim_value(sim_value(0, 0).eax, 0); /* no extended range: garbage */
    if (!d && subleaf && leaf != 4 && leaf != 7 && leaf != 0xb && leaf != 0x1f && leaf != 0x8000001d)
        d = sim_find(leaf, 0); /* leaves without subleaves ignore ECX */
    return sim_regs(d);
}

static inline bool sim_eflags_toggles(uint32_t mask)
{
    sim.eflags_tests++;
    if (mask & EFLAGS_AC)
        return sim.ac_toggles;
    if (mask & EFLAGS_ID)
        return sim.id_toggles;
    return true;
}

static inline bool sim_fpu_present(void)
{
    sim.fpu_tests++;
    return sim.fpu;
}

static const struct cpu_probe_ops sim_ops = {
    .eflags_toggles = sim_eflags_toggles,
    .fpu_present = sim_fpu_present,
    .cpuid = sim_cpuid,
};

/* A CPU with CPUID answering from `d`. */
static inline void sim_start(const struct cpu_dump *d)
{
    memset(&sim, 0, sizeof sim);
    sim.dump = d;
    sim.ac_toggles = sim.id_toggles = true;
    sim.fpu = true;
}

static const struct dump_leaf sim_no_leaves[] = { { 0, 0, 0, 0, 0, 0 } };
static const struct cpu_dump sim_no_cpuid = { "synthetic: no CPUID", sim_no_leaves, 0 };

/* A CPU without CPUID: a 386 (AC fixed) or a 486 (ID fixed). */
static inline void sim_start_pre_cpuid(bool ac_toggles, bool fpu)
{
    memset(&sim, 0, sizeof sim);
    sim.dump = &sim_no_cpuid;
    sim.ac_toggles = ac_toggles;
    sim.id_toggles = false;
    sim.fpu = fpu;
}

#endif
