/* Identification, step one: find out what can be asked, then ask only that.
 *
 * Before CPUID: a 386 cannot toggle EFLAGS.AC (bit 18); a 486 without CPUID
 * cannot toggle EFLAGS.ID (bit 21) (Intel AP-485, "Intel Processor
 * Identification and the CPUID Instruction", section 2 and its sample code).
 *
 * With CPUID, every leaf is checked against the maximum of its range before it
 * is read: leaf 0 EAX for the standard range, 0x80000000 EAX for the extended
 * range, 0x40000000 EAX for the hypervisor range, which is only entered when
 * CPUID.1:ECX[31] says a hypervisor is present. Subleaves stay inside their
 * own enumeration (leaf 7: up to 7.0:EAX; leaves 4, 0xB and 0x8000001D: up to
 * and including the first null entry). Intel SDM Vol. 2A, CPUID: a leaf above
 * the maximum returns the data of the highest basic leaf, i.e. garbage.
 *
 * Every leaf read lands in c->raw; cpu_decode() then works on c->raw only. */
#include "cpu.h"
#include "lib/kstring.h"

#define STD_WANTED_MAX 0x1fu      /* highest standard leaf we decode */
#define EXT_RANGE_LIMIT CPU_EXT_RANGE_LIMIT
#define EXT_WANTED_MAX 0x80000008u
#define HV_RANGE_LIMIT CPU_HV_RANGE_LIMIT
#define SUBLEAF_CAP 16u

static struct cpu_info cpu_identified;
const struct cpu_info *const cpu = &cpu_identified;

struct probe {
    struct cpu_info *c;
    const struct cpu_probe_ops *ops;
};

static struct cpuid_regs ask(struct probe *p, uint32_t leaf, uint32_t subleaf)
{
    struct cpuid_regs r = p->ops->cpuid(leaf, subleaf);
    struct cpu_info *c = p->c;
    if (c->nraw < CPU_RAW_MAX) {
        c->raw[c->nraw].leaf = leaf;
        c->raw[c->nraw].subleaf = subleaf;
        c->raw[c->nraw].r = r;
        c->nraw++;
    }
    return r;
}

static bool ask_if(struct probe *p, uint32_t leaf, uint32_t max, struct cpuid_regs *out)
{
    if (leaf > max)
        return false;
    struct cpuid_regs r = ask(p, leaf, 0);
    if (out)
        *out = r;
    return true;
}

/* Leaves 4 and 0x8000001D: subleaves until the first with cache type 0. */
static void ask_cache_subleaves(struct probe *p, uint32_t leaf)
{
    for (uint32_t sub = 0; sub < SUBLEAF_CAP; sub++)
        if ((ask(p, leaf, sub).eax & 0x1f) == 0)
            break;
}

/* Leaves 0xB and 0x1F (extended topology, SDM Vol. 2A, CPUID): subleaves
 * until the level type (ECX[15:8]) is 0. */
static void ask_topology_subleaves(struct probe *p, uint32_t leaf)
{
    for (uint32_t sub = 0; sub < SUBLEAF_CAP; sub++)
        if (((ask(p, leaf, sub).ecx >> 8) & 0xff) == 0)
            break;
}

static void probe_standard(struct probe *p, uint32_t max, bool *hypervisor)
{
    struct cpuid_regs r;
    *hypervisor = false;
    if (ask_if(p, 1, max, &r))
        *hypervisor = (r.ecx >> 31) & 1;
    if (ask_if(p, 2, max, &r)) {
        /* AL is how many times leaf 2 must be executed (1 on all but early P6). */
        unsigned times = r.eax & 0xff;
        for (unsigned i = 1; i < times && i < 4; i++)
            ask(p, 2, 0);
    }
    if (max >= 4)
        ask_cache_subleaves(p, 4);
    ask_if(p, 6, max, NULL);
    if (ask_if(p, 7, max, &r)) {
        uint32_t subs = r.eax; /* highest valid subleaf */
        for (uint32_t sub = 1; sub <= subs && sub < SUBLEAF_CAP; sub++)
            ask(p, 7, sub);
    }
    ask_if(p, 0xa, max, NULL);
    if (ask_if(p, 0xd, max, NULL)) /* XSAVE: the supported state components (subleaf 0) */
        ask(p, 0xd, 1); /* XSAVEOPT, XSAVEC, XGETBV with ECX=1, XSAVES (SDM Vol. 2A, CPUID) */
    if (max >= 0xb)
        ask_topology_subleaves(p, 0xb);
    ask_if(p, 0x15, max, NULL);
    ask_if(p, 0x16, max, NULL);
    ask_if(p, 0x1a, max, NULL); /* hybrid parts: this processor's core type */
    if (max >= 0x1f)
        ask_topology_subleaves(p, 0x1f); /* V2 extended topology (module, tile, die) */
}

static void probe_hypervisor(struct probe *p)
{
    struct cpuid_regs r = ask(p, 0x40000000, 0);
    uint32_t max = r.eax;
    /* Some hypervisors answer 0 here (Linux treats that as 0x40000001); we
     * only read beyond the vendor leaf when the maximum says so. */
    if (max < 0x40000000 || max > HV_RANGE_LIMIT)
        max = 0x40000000;
    ask_if(p, 0x40000001, max, NULL);
}

static void probe_extended(struct probe *p)
{
    struct cpuid_regs r = ask(p, 0x80000000, 0);
    uint32_t max = r.eax;
    if (max <= 0x80000000 || max > EXT_RANGE_LIMIT)
        return; /* no extended range: the answer was the highest basic leaf's data */
    uint32_t last = max < EXT_WANTED_MAX ? max : EXT_WANTED_MAX;
    uint32_t x1_ecx = 0;
    for (uint32_t leaf = 0x80000001; leaf <= last; leaf++) {
        r = ask(p, leaf, 0);
        if (leaf == 0x80000001)
            x1_ecx = r.ecx;
    }
    /* AMD cache topology (0x8000001D) exists when TopologyExtensions is set
     * (AMD APM Vol. 3, CPUID Fn8000_0001_ECX[22]). Only AMD-compatible
     * vendors define that bit; elsewhere it is reserved and clear. */
    if (((x1_ecx >> 22) & 1) && max >= 0x8000001d)
        ask_cache_subleaves(p, 0x8000001d);
    /* ... and so does Fn8000_001E, the core and thread identifiers. */
    if (((x1_ecx >> 22) & 1) && max >= 0x8000001e)
        ask(p, 0x8000001e, 0);
}

void cpu_probe_with(struct cpu_info *c, const struct cpu_probe_ops *ops)
{
    struct probe p = { .c = c, .ops = ops };
    kmemset(c, 0, sizeof *c);

    if (!ops->eflags_toggles(EFLAGS_AC)) {
        c->generation = CPU_GEN_386;
    } else if (!ops->eflags_toggles(EFLAGS_ID)) {
        c->generation = CPU_GEN_486_NO_CPUID;
    } else {
        c->generation = CPU_GEN_CPUID;
    }
    if (c->generation != CPU_GEN_CPUID) {
        c->has_fpu = ops->fpu_present();
        cpu_decode(c);
        return;
    }

    struct cpuid_regs r = ask(&p, 0, 0);
    uint32_t max = r.eax;
    bool hypervisor = false;
    probe_standard(&p, max < STD_WANTED_MAX ? max : STD_WANTED_MAX, &hypervisor);
    if (hypervisor)
        probe_hypervisor(&p);
    probe_extended(&p);
    cpu_decode(c);
}

void cpu_probe_platform(const struct cpu_probe_ops *ops)
{
    cpu_probe_with(&cpu_identified, ops);
}

/* XCR0 as the OS left it. Nothing is read where CPUID says XSAVE or
 * OSXSAVE is absent: XGETBV then raises #UD (SDM Vol. 2C, XGETBV). */
void cpu_xstate_read(const struct cpu_info *c, const struct cpu_probe_ops *ops,
                     struct cpu_xstate *x)
{
    *x = (struct cpu_xstate){ .reason = NULL };
    if (c->generation != CPU_GEN_CPUID) {
        x->reason = "no CPUID instruction, so no XSAVE";
        return;
    }
    if (!cpu_has(c, FEAT_XSAVE)) {
        x->reason = "no XSAVE (CPUID.1:ECX bit 26 clear)";
        return;
    }
    const struct cpuid_regs *d = cpu_raw_find(c, 0xd, 0);
    if (d)
        x->supported = ((uint64_t)d->edx << 32) | d->eax;
    /* Leaf 1 again: OSXSAVE mirrors CR4.OSXSAVE, set after identification. */
    x->osxsave = (ops->cpuid(1, 0).ecx >> 27) & 1;
    if (!x->osxsave) {
        x->reason = "the OS has not set CR4.OSXSAVE (CPUID.1:ECX bit 27 clear)";
        return;
    }
    if (!ops->xgetbv) {
        x->reason = "this platform offers no XGETBV";
        return;
    }
    x->xcr0 = ops->xgetbv(0);
    x->known = true;
}
