/* Identification, step two: turn the raw leaves into struct cpu_info.
 * Works on c->raw only, so a log's raw leaves decode again on the host into
 * exactly what the kernel saw. Field layouts: Intel SDM Vol. 2A, CPUID
 * (leaves 0, 1, 7, 0AH, 15H, 16H, 80000002H-80000004H, 80000007H); AMD APM
 * Vol. 3, Appendix E (Fn0000_0001, Fn8000_0000/1/7). */
#include "cpu.h"
#include "cpu_core.h"
#include "lib/kstring.h"

static void put_reg(char *dst, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        dst[i] = (char)(v >> (8 * i));
}

/* Leading blanks are common (Intel NetBurst right-aligns its brand string),
 * trailing blanks too (AMD pads to 48); neither carries information. */
static void trim_blanks(char *s)
{
    size_t n = kstrlen(s), start = 0;
    while (start < n && s[start] == ' ')
        start++;
    while (n > start && s[n - 1] == ' ')
        n--;
    size_t i = 0;
    for (; start + i < n; i++)
        s[i] = s[start + i];
    s[i] = 0;
}

static void decode_vendor(struct cpu_info *c, const struct cpuid_regs *l0)
{
    /* The string is EBX, EDX, ECX in that order. */
    put_reg(c->vendor_string, l0->ebx);
    put_reg(c->vendor_string + 4, l0->edx);
    put_reg(c->vendor_string + 8, l0->ecx);
    c->vendor_string[12] = 0;
    c->vendor = cpu_vendor_from_string(c->vendor_string);
}

/* Family and model with the extended fields: the extended family is added
 * when the base family is 0xF; the extended model is the high nibble of the
 * model when the family is 6 or above (Intel SDM: family 6 or 0xF; AMD APM:
 * family 0xF and above; Centaur/Zhaoxin family 7 parts use it too, which is
 * the rule Linux applies in x86_model()). */
static void decode_signature(struct cpu_info *c, uint32_t eax)
{
    unsigned base_family = (eax >> 8) & 0xf;
    unsigned family = base_family;
    if (base_family == 0xf)
        family += (eax >> 20) & 0xff;
    unsigned model = (eax >> 4) & 0xf;
    if (family >= 6)
        model |= ((eax >> 16) & 0xf) << 4;
    c->family = family;
    c->model = model;
    c->stepping = eax & 0xf;
    c->type = (eax >> 12) & 3;
}

static void decode_brand(struct cpu_info *c)
{
    if (c->max_ext_leaf < 0x80000004)
        return;
    for (uint32_t i = 0; i < 3; i++) {
        const struct cpuid_regs *r = cpu_raw_find(c, 0x80000002 + i, 0);
        if (!r)
            return;
        put_reg(c->brand + 16 * i, r->eax);
        put_reg(c->brand + 16 * i + 4, r->ebx);
        put_reg(c->brand + 16 * i + 8, r->ecx);
        put_reg(c->brand + 16 * i + 12, r->edx);
    }
    c->brand[48] = 0;
    trim_blanks(c->brand);
}

static void decode_features(struct cpu_info *c)
{
    const struct cpuid_regs *r;
    if (c->max_leaf >= 1 && (r = cpu_raw_find(c, 1, 0))) {
        c->features[FW_1_EDX] = r->edx;
        c->features[FW_1_ECX] = r->ecx;
    }
    if (c->max_leaf >= 7 && (r = cpu_raw_find(c, 7, 0))) {
        c->features[FW_7_EBX] = r->ebx;
        c->features[FW_7_ECX] = r->ecx;
        c->features[FW_7_EDX] = r->edx;
    }
    if (c->max_ext_leaf >= 0x80000001 && (r = cpu_raw_find(c, 0x80000001, 0))) {
        c->features[FW_X1_EDX] = r->edx;
        c->features[FW_X1_ECX] = r->ecx;
    }
    if (c->max_ext_leaf >= 0x80000007 && (r = cpu_raw_find(c, 0x80000007, 0)))
        c->features[FW_X7_EDX] = r->edx;

    /* SEP is set on the Pentium Pro, which has no SYSENTER/SYSEXIT: they
     * exist from signature 0x633 on (Intel AP-485, "SYSENTER/SYSEXIT"; Intel
     * SDM Vol. 2B, SYSENTER; Linux arch/x86/kernel/cpu/intel.c compares the
     * signature with 0x633 the same way). */
    if (c->vendor == VENDOR_INTEL && c->family == 6 && ((c->model << 4) | c->stepping) < 0x33)
        c->features[FW_1_EDX] &= ~(1u << 11);
}

static void decode_perfmon(struct cpu_info *c)
{
    const struct cpuid_regs *r;
    if (c->max_leaf < 0xa || !(r = cpu_raw_find(c, 0xa, 0)))
        return;
    c->perfmon.version = r->eax & 0xff;
    if (c->perfmon.version == 0)
        return;
    c->perfmon.gp_counters = (r->eax >> 8) & 0xff;
    c->perfmon.gp_width = (r->eax >> 16) & 0xff;
    /* EBX bit i = 1: architectural event i is NOT available; only the
     * first EAX[31:24] bits are defined. */
    unsigned len = (r->eax >> 24) & 0xff;
    uint32_t defined = len >= 32 ? 0xffffffffu : ((1u << len) - 1);
    c->perfmon.unavailable_events = r->ebx & defined;
    if (c->perfmon.version > 1) {
        /* Counted literally: Core 2 reports 0 fixed counters here though it
         * has 3 (the PMU driver knows that quirk). Version 5 adds ECX, a
         * bitmap of fixed counters that may extend beyond EDX[4:0]. */
        unsigned fixed = r->edx & 0x1f;
        if (c->perfmon.version >= 5) {
            for (unsigned i = 0; i < 32; i++)
                if (((r->ecx >> i) & 1) && i + 1 > fixed)
                    fixed = i + 1;
        }
        c->perfmon.fixed_counters = fixed;
        c->perfmon.fixed_width = (r->edx >> 5) & 0xff;
    }
}

static void decode_clock(struct cpu_info *c)
{
    const struct cpuid_regs *r;
    if (c->max_leaf >= 0x15 && (r = cpu_raw_find(c, 0x15, 0))) {
        c->clock.ratio_den = r->eax;
        c->clock.ratio_num = r->ebx;
        c->clock.crystal_hz = r->ecx;
    }
    if (c->max_leaf >= 0x16 && (r = cpu_raw_find(c, 0x16, 0))) {
        c->clock.base_mhz = r->eax & 0xffff;
        c->clock.max_mhz = r->ebx & 0xffff;
        c->clock.bus_mhz = r->ecx & 0xffff;
    }
}

static void decode_hypervisor(struct cpu_info *c)
{
    const struct cpuid_regs *r;
    if (!cpu_has(c, FEAT_HYPERVISOR) || !(r = cpu_raw_find(c, 0x40000000, 0)))
        return;
    c->max_hv_leaf = r->eax;
    if (c->max_hv_leaf < 0x40000000 || c->max_hv_leaf > CPU_HV_RANGE_LIMIT)
        c->max_hv_leaf = 0x40000000;
    put_reg(c->hv_vendor, r->ebx);
    put_reg(c->hv_vendor + 4, r->ecx);
    put_reg(c->hv_vendor + 8, r->edx);
    c->hv_vendor[12] = 0;
}

/* Clears everything that cpu_decode() derives, keeping what only the probe
 * can know (generation, has_fpu without CPUID) and the raw leaves. */
static void clear_decoded(struct cpu_info *c)
{
    c->vendor = VENDOR_UNKNOWN;
    kmemset(c->vendor_string, 0, sizeof c->vendor_string);
    c->max_leaf = c->max_ext_leaf = c->max_hv_leaf = 0;
    c->family = c->model = c->stepping = c->type = 0;
    kmemset(c->brand, 0, sizeof c->brand);
    kmemset(c->name, 0, sizeof c->name);
    c->named_by = 0;
    c->core_fits = 0;
    kmemset(c->features, 0, sizeof c->features);
    kmemset(c->hv_vendor, 0, sizeof c->hv_vendor);
    kmemset(&c->perfmon, 0, sizeof c->perfmon);
    kmemset(&c->clock, 0, sizeof c->clock);
    kmemset(c->caches, 0, sizeof c->caches);
    c->ncaches = 0;
}

void cpu_decode(struct cpu_info *c)
{
    clear_decoded(c);
    const struct cpuid_regs *l0 = cpu_raw_find(c, 0, 0);
    if (!l0) {
        /* No CPUID: a 386 or a 486 that cannot identify itself further. */
        if (c->generation == CPU_GEN_CPUID)
            c->generation = CPU_GEN_486_NO_CPUID;
        cpu_decode_name(c);
        return;
    }
    c->generation = CPU_GEN_CPUID;
    c->max_leaf = l0->eax;
    decode_vendor(c, l0);

    const struct cpuid_regs *x0 = cpu_raw_find(c, 0x80000000, 0);
    if (x0 && x0->eax > 0x80000000 && x0->eax <= CPU_EXT_RANGE_LIMIT)
        c->max_ext_leaf = x0->eax;

    const struct cpuid_regs *l1 = c->max_leaf >= 1 ? cpu_raw_find(c, 1, 0) : NULL;
    if (l1)
        decode_signature(c, l1->eax);
    decode_features(c);
    c->has_fpu = cpu_has(c, FEAT_FPU);
    decode_brand(c);
    decode_perfmon(c);
    decode_clock(c);
    decode_hypervisor(c);
    cpu_decode_caches(c);
    cpu_decode_name(c);
    cpu_decode_core(c);
}

void cpu_decode_raw(struct cpu_info *c, const struct cpuid_leaf_raw *raw, unsigned n)
{
    kmemset(c, 0, sizeof *c);
    if (n > CPU_RAW_MAX)
        n = CPU_RAW_MAX;
    for (unsigned i = 0; i < n; i++)
        c->raw[i] = raw[i];
    c->nraw = n;
    c->generation = n ? CPU_GEN_CPUID : CPU_GEN_486_NO_CPUID;
    cpu_decode(c);
}
