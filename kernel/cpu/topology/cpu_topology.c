/* CPUID topology decoding (see cpu_topology.h for the sources). */
#include "cpu_topology.h"
#include "lib/kstring.h"

unsigned topo_bits_for(uint32_t count)
{
    unsigned n = 0;
    while (n < 32 && (1ull << n) < count)
        n++;
    return n;
}

/* Leaf 0xB or 0x1F: subleaf n's ECX[15:8] is the level type (1 SMT, 2 core,
 * 3 module, 4 tile, 5 die), EAX[4:0] the shift that yields the next level's
 * ID, EBX[15:0] the logical processors at this level (0: not a valid
 * level). The SMT level's shift is the thread width; the last valid level's
 * shift is the width below the package. */
static bool from_extended_leaf(const struct cpu_info *c, uint32_t leaf, struct cpu_topology *t)
{
    const struct cpuid_regs *r0 = cpu_raw_find(c, leaf, 0);
    if (!r0 || (r0->ebx & 0xffff) == 0 || ((r0->ecx >> 8) & 0xff) == 0)
        return false;
    bool have_smt = false;
    for (uint32_t sub = 0; sub < 16; sub++) {
        const struct cpuid_regs *r = cpu_raw_find(c, leaf, sub);
        if (!r || ((r->ecx >> 8) & 0xff) == 0 || (r->ebx & 0xffff) == 0)
            break;
        if (((r->ecx >> 8) & 0xff) == 1) {
            t->smt_bits = r->eax & 0x1f;
            have_smt = true;
        }
        t->package_bits = r->eax & 0x1f;
    }
    if (!have_smt)
        t->smt_bits = 0;
    t->apic_id = r0->edx; /* the x2APIC ID of this processor */
    t->have_apic_id = true;
    t->source = leaf == 0x1f ? "CPUID 0x1F" : "CPUID 0xB";
    return true;
}

/* AMD: Fn8000_0008 ECX[15:12] ApicIdSize (bits of the APIC ID below the
 * package; 0: use ECX[7:0] NC + 1 cores), Fn8000_001E EBX[15:8] threads
 * per core - 1 (AMD APM Vol. 3, Appendix E.4.7 and E.4.15). */
static bool from_amd_leaves(const struct cpu_info *c, struct cpu_topology *t)
{
    const struct cpuid_regs *x8 = cpu_raw_find(c, 0x80000008, 0);
    if (!x8 || (c->vendor != VENDOR_AMD && c->vendor != VENDOR_HYGON))
        return false;
    unsigned size = (x8->ecx >> 12) & 0xf;
    t->package_bits = size ? size : topo_bits_for((x8->ecx & 0xff) + 1);
    const struct cpuid_regs *x1e = cpu_raw_find(c, 0x8000001e, 0);
    t->smt_bits = x1e ? topo_bits_for(((x1e->ebx >> 8) & 0xff) + 1) : 0;
    t->source = x1e ? "CPUID 0x80000008/0x8000001E" : "CPUID 0x80000008";
    return true;
}

/* Before leaf 0xB: leaf 1 EBX[23:16] logical processors per package (with
 * HTT), leaf 4 EAX[31:26] + 1 cores per package (SDM Vol. 3A §9.9.1). */
static bool from_legacy_leaves(const struct cpu_info *c, struct cpu_topology *t)
{
    const struct cpuid_regs *l1 = cpu_raw_find(c, 1, 0);
    if (!l1 || !cpu_has(c, FEAT_HTT))
        return false;
    const struct cpuid_regs *l4 = cpu_raw_find(c, 4, 0);
    uint32_t logical = (l1->ebx >> 16) & 0xff;
    uint32_t cores = l4 && (l4->eax & 0x1f) ? (l4->eax >> 26) + 1 : 1;
    t->package_bits = topo_bits_for(logical);
    unsigned core_bits = topo_bits_for(cores);
    t->smt_bits = t->package_bits > core_bits ? t->package_bits - core_bits : 0;
    t->source = "CPUID 1/4";
    return true;
}

/* Leaf 4 (Intel) or Fn8000_001D (AMD, same layout): EAX[4:0] type (1 data,
 * 2 instruction, 3 unified), EAX[7:5] level, EAX[25:14] + 1 the most
 * logical processors sharing the cache. */
static void caches(const struct cpu_info *c, struct cpu_topology *t)
{
    const struct cpuid_regs *l4 = cpu_raw_find(c, 4, 0);
    uint32_t leaf = l4 && (l4->eax & 0x1f) ? 4 : 0x8000001d; /* AMD reads leaf 4 as zeros */
    for (uint32_t sub = 0; sub < 16 && t->ncaches < TOPO_MAX_CACHES; sub++) {
        const struct cpuid_regs *r = cpu_raw_find(c, leaf, sub);
        if (!r || (r->eax & 0x1f) == 0 || (r->eax & 0x1f) > 3)
            break;
        struct topo_cache *k = &t->caches[t->ncaches++];
        k->type = "-diu"[r->eax & 0x1f];
        k->level = (r->eax >> 5) & 7;
        k->sharing = ((r->eax >> 14) & 0xfff) + 1;
        k->share_bits = topo_bits_for(k->sharing);
    }
}

void cpu_topology_decode(const struct cpu_info *c, struct cpu_topology *t)
{
    kmemset(t, 0, sizeof *t);
    if (c->generation != CPU_GEN_CPUID) {
        t->why_unknown = "no CPUID instruction";
        return;
    }
    const struct cpuid_regs *l1 = cpu_raw_find(c, 1, 0);
    if (l1 && cpu_has(c, FEAT_APIC)) {
        t->apic_id = l1->ebx >> 24; /* initial APIC ID, leaf 1 EBX[31:24] */
        t->have_apic_id = true;
    }
    if (!from_extended_leaf(c, 0x1f, t) && !from_extended_leaf(c, 0xb, t) && !from_amd_leaves(c, t) &&
        !from_legacy_leaves(c, t))
        t->why_unknown = "no topology leaf (0x1F, 0xB, 0x8000001E/0x80000008) and no HTT: one thread per package";
    caches(c, t);
    const struct cpuid_regs *l7 = cpu_raw_find(c, 7, 0);
    t->hybrid = l7 && ((l7->edx >> 15) & 1);
    const struct cpuid_regs *l1a = cpu_raw_find(c, 0x1a, 0);
    if (t->hybrid && l1a)
        t->core_type = l1a->eax >> 24;
}

void cpu_topology_split(const struct cpu_topology *t, uint32_t apic_id, uint32_t *package,
                        uint32_t *core, uint32_t *thread)
{
    uint32_t below = t->package_bits >= 32 ? 0xffffffffu : (1u << t->package_bits) - 1;
    *package = t->package_bits >= 32 ? 0 : apic_id >> t->package_bits;
    *core = (apic_id & below) >> t->smt_bits;
    *thread = apic_id & ((1u << t->smt_bits) - 1);
}

const char *cpu_core_type_name(unsigned core_type)
{
    switch (core_type) {
    case 0x20: return "atom";
    case 0x40: return "core";
    default: return NULL;
    }
}
