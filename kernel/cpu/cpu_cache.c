/* Caches and TLBs.
 *
 * Which source is believed:
 *   1. deterministic parameters: Intel leaf 4, or AMD 0x8000001D (same
 *      layout; AMD APM Vol. 3, Fn8000_001D) when present: they give the caches;
 *   2. Intel: leaf-2 descriptors give the TLBs, and the caches too when leaf 4
 *      is absent (Pentium, Pentium Pro/II/III, Pentium 4);
 *   3. everyone else: 0x80000005 (L1 caches and TLBs) and 0x80000006 (L2/L3
 *      and L2 TLBs) in AMD's layout (AMD APM Vol. 3, Fn8000_0005/6), which
 *      Centaur/VIA and Transmeta follow too. Cyrix gives leaf 2 its own
 *      meanings (Cyrix 6x86MX data book), so leaf 2 is only read for Intel.
 * Entries: size in bytes (caches) or entries (TLBs); line in bytes (caches)
 * or page size in KiB (TLBs); ways 0xffff = fully associative, 0 = unknown. */
#include "cpu.h"

#define FULL 0xffff
#define KB 1024u
#define MB (1024u * 1024u)
#define PAGE_4K 4u
#define PAGE_2M 2048u
#define PAGE_4M 4096u
#define PAGE_1G (1024u * 1024u)

static void add(struct cpu_info *c, enum cache_kind kind, unsigned level, unsigned ways,
                uint32_t size, uint32_t line)
{
    if (c->ncaches >= CPU_CACHES_MAX || size == 0)
        return;
    for (unsigned i = 0; i < c->ncaches; i++) {
        const struct cache_desc *d = &c->caches[i];
        if (d->kind == kind && d->level == level && d->ways == ways && d->size == size &&
            d->line == line)
            return; /* the same structure reported twice (e.g. leaf 2 run twice) */
    }
    struct cache_desc *d = &c->caches[c->ncaches++];
    d->kind = (uint8_t)kind;
    d->level = (uint8_t)level;
    d->ways = (uint16_t)ways;
    d->size = size;
    d->line = line;
}

static bool is_tlb(enum cache_kind k)
{
    return k == CACHE_TLB_DATA || k == CACHE_TLB_INSN || k == CACHE_TLB_UNIFIED;
}

const char *cpu_cache_kind_name(enum cache_kind k)
{
    switch (k) {
    case CACHE_DATA: return "data";
    case CACHE_INSN: return "instruction";
    case CACHE_UNIFIED: return "unified";
    case CACHE_TLB_DATA: return "data-tlb";
    case CACHE_TLB_INSN: return "instruction-tlb";
    case CACHE_TLB_UNIFIED: return "unified-tlb";
    }
    return "?";
}

/* ---- Intel leaf 2 ----------------------------------------------------------
 * Intel SDM Vol. 2A, CPUID, Table "Encoding of CPUID Leaf 2 Descriptors".
 * Trace caches (0x70-0x72) hold micro-ops, not bytes: they are not listed.
 * Descriptors with two structures (0x63, 0xB1, 0xC3) are split in two. */
struct leaf2_entry {
    uint8_t desc, kind, level;
    uint16_t ways;
    uint32_t size, line;
};

#define C(d, k, l, w, s, ln) { d, k, l, w, s, ln }
static const struct leaf2_entry leaf2_table[] = {
    C(0x01, CACHE_TLB_INSN, 1, 4, 32, PAGE_4K),
    C(0x02, CACHE_TLB_INSN, 1, FULL, 2, PAGE_4M),
    C(0x03, CACHE_TLB_DATA, 1, 4, 64, PAGE_4K),
    C(0x04, CACHE_TLB_DATA, 1, 4, 8, PAGE_4M),
    C(0x05, CACHE_TLB_DATA, 1, 4, 32, PAGE_4M),
    C(0x06, CACHE_INSN, 1, 4, 8 * KB, 32),
    C(0x08, CACHE_INSN, 1, 4, 16 * KB, 32),
    C(0x09, CACHE_INSN, 1, 4, 32 * KB, 64),
    C(0x0a, CACHE_DATA, 1, 2, 8 * KB, 32),
    C(0x0b, CACHE_TLB_INSN, 1, 4, 4, PAGE_4M),
    C(0x0c, CACHE_DATA, 1, 4, 16 * KB, 32),
    C(0x0d, CACHE_DATA, 1, 4, 16 * KB, 64),
    C(0x0e, CACHE_DATA, 1, 6, 24 * KB, 64),
    C(0x1d, CACHE_UNIFIED, 2, 2, 128 * KB, 64),
    C(0x21, CACHE_UNIFIED, 2, 8, 256 * KB, 64),
    C(0x22, CACHE_UNIFIED, 3, 4, 512 * KB, 64),
    C(0x23, CACHE_UNIFIED, 3, 8, 1 * MB, 64),
    C(0x24, CACHE_UNIFIED, 2, 16, 1 * MB, 64),
    C(0x25, CACHE_UNIFIED, 3, 8, 2 * MB, 64),
    C(0x29, CACHE_UNIFIED, 3, 8, 4 * MB, 64),
    C(0x2c, CACHE_DATA, 1, 8, 32 * KB, 64),
    C(0x30, CACHE_INSN, 1, 8, 32 * KB, 64),
    C(0x41, CACHE_UNIFIED, 2, 4, 128 * KB, 32),
    C(0x42, CACHE_UNIFIED, 2, 4, 256 * KB, 32),
    C(0x43, CACHE_UNIFIED, 2, 4, 512 * KB, 32),
    C(0x44, CACHE_UNIFIED, 2, 4, 1 * MB, 32),
    C(0x45, CACHE_UNIFIED, 2, 4, 2 * MB, 32),
    C(0x46, CACHE_UNIFIED, 3, 4, 4 * MB, 64),
    C(0x47, CACHE_UNIFIED, 3, 8, 8 * MB, 64),
    C(0x48, CACHE_UNIFIED, 2, 12, 3 * MB, 64),
    C(0x49, CACHE_UNIFIED, 2, 16, 4 * MB, 64), /* L3 on family 0xF model 6: see below */
    C(0x4a, CACHE_UNIFIED, 3, 12, 6 * MB, 64),
    C(0x4b, CACHE_UNIFIED, 3, 16, 8 * MB, 64),
    C(0x4c, CACHE_UNIFIED, 3, 12, 12 * MB, 64),
    C(0x4d, CACHE_UNIFIED, 3, 16, 16 * MB, 64),
    C(0x4e, CACHE_UNIFIED, 2, 24, 6 * MB, 64),
    C(0x4f, CACHE_TLB_INSN, 1, 0, 32, PAGE_4K),
    C(0x50, CACHE_TLB_INSN, 1, 0, 64, PAGE_4K),   /* 4K and 2M/4M pages */
    C(0x51, CACHE_TLB_INSN, 1, 0, 128, PAGE_4K),  /* 4K and 2M/4M pages */
    C(0x52, CACHE_TLB_INSN, 1, 0, 256, PAGE_4K),  /* 4K and 2M/4M pages */
    C(0x55, CACHE_TLB_INSN, 1, FULL, 7, PAGE_2M), /* 2M or 4M pages */
    C(0x56, CACHE_TLB_DATA, 1, 4, 16, PAGE_4M),
    C(0x57, CACHE_TLB_DATA, 1, 4, 16, PAGE_4K),
    C(0x59, CACHE_TLB_DATA, 1, FULL, 16, PAGE_4K),
    C(0x5a, CACHE_TLB_DATA, 1, 4, 32, PAGE_2M),   /* 2M or 4M pages */
    C(0x5b, CACHE_TLB_DATA, 1, 0, 64, PAGE_4K),   /* 4K and 4M pages */
    C(0x5c, CACHE_TLB_DATA, 1, 0, 128, PAGE_4K),  /* 4K and 4M pages */
    C(0x5d, CACHE_TLB_DATA, 1, 0, 256, PAGE_4K),  /* 4K and 4M pages */
    C(0x60, CACHE_DATA, 1, 8, 16 * KB, 64),
    C(0x61, CACHE_TLB_INSN, 1, FULL, 48, PAGE_4K),
    C(0x63, CACHE_TLB_DATA, 1, 4, 32, PAGE_2M),   /* 2M or 4M pages, and: */
    C(0x63, CACHE_TLB_DATA, 1, 4, 4, PAGE_1G),
    C(0x64, CACHE_TLB_DATA, 1, 4, 512, PAGE_4K),
    C(0x66, CACHE_DATA, 1, 4, 8 * KB, 64),
    C(0x67, CACHE_DATA, 1, 4, 16 * KB, 64),
    C(0x68, CACHE_DATA, 1, 4, 32 * KB, 64),
    C(0x6a, CACHE_TLB_DATA, 1, 8, 64, PAGE_4K),   /* uTLB */
    C(0x6b, CACHE_TLB_DATA, 1, 8, 256, PAGE_4K),
    C(0x6c, CACHE_TLB_DATA, 1, 8, 128, PAGE_2M),  /* 2M or 4M pages */
    C(0x6d, CACHE_TLB_DATA, 1, FULL, 16, PAGE_1G),
    C(0x76, CACHE_TLB_INSN, 1, FULL, 8, PAGE_2M), /* 2M or 4M pages */
    C(0x78, CACHE_UNIFIED, 2, 4, 1 * MB, 64),
    C(0x79, CACHE_UNIFIED, 2, 8, 128 * KB, 64),
    C(0x7a, CACHE_UNIFIED, 2, 8, 256 * KB, 64),
    C(0x7b, CACHE_UNIFIED, 2, 8, 512 * KB, 64),
    C(0x7c, CACHE_UNIFIED, 2, 8, 1 * MB, 64),
    C(0x7d, CACHE_UNIFIED, 2, 8, 2 * MB, 64),
    C(0x7f, CACHE_UNIFIED, 2, 2, 512 * KB, 64),
    C(0x80, CACHE_UNIFIED, 2, 8, 512 * KB, 64),
    C(0x82, CACHE_UNIFIED, 2, 8, 256 * KB, 32),
    C(0x83, CACHE_UNIFIED, 2, 8, 512 * KB, 32),
    C(0x84, CACHE_UNIFIED, 2, 8, 1 * MB, 32),
    C(0x85, CACHE_UNIFIED, 2, 8, 2 * MB, 32),
    C(0x86, CACHE_UNIFIED, 2, 4, 512 * KB, 64),
    C(0x87, CACHE_UNIFIED, 2, 8, 1 * MB, 64),
    C(0xa0, CACHE_TLB_DATA, 1, FULL, 32, PAGE_4K),
    C(0xb0, CACHE_TLB_INSN, 1, 4, 128, PAGE_4K),
    C(0xb1, CACHE_TLB_INSN, 1, 4, 8, PAGE_2M),    /* or 4 entries of 4M pages */
    C(0xb2, CACHE_TLB_INSN, 1, 4, 64, PAGE_4K),
    C(0xb3, CACHE_TLB_DATA, 1, 4, 128, PAGE_4K),
    C(0xb4, CACHE_TLB_DATA, 1, 4, 256, PAGE_4K),
    C(0xb5, CACHE_TLB_INSN, 1, 8, 64, PAGE_4K),
    C(0xb6, CACHE_TLB_INSN, 1, 8, 128, PAGE_4K),
    C(0xba, CACHE_TLB_DATA, 1, 4, 64, PAGE_4K),
    C(0xc0, CACHE_TLB_DATA, 1, 4, 8, PAGE_4K),    /* 4K and 4M pages */
    C(0xc1, CACHE_TLB_UNIFIED, 2, 8, 1024, PAGE_4K), /* 4K/2M pages */
    C(0xc2, CACHE_TLB_DATA, 1, 4, 16, PAGE_4K),   /* 4K/2M pages */
    C(0xc3, CACHE_TLB_UNIFIED, 2, 6, 1536, PAGE_4K), /* 4K/2M pages, and: */
    C(0xc3, CACHE_TLB_UNIFIED, 2, 4, 16, PAGE_1G),
    C(0xc4, CACHE_TLB_DATA, 1, 4, 32, PAGE_2M),   /* 2M/4M pages */
    C(0xca, CACHE_TLB_UNIFIED, 2, 4, 512, PAGE_4K),
    C(0xd0, CACHE_UNIFIED, 3, 4, 512 * KB, 64),
    C(0xd1, CACHE_UNIFIED, 3, 4, 1 * MB, 64),
    C(0xd2, CACHE_UNIFIED, 3, 4, 2 * MB, 64),
    C(0xd6, CACHE_UNIFIED, 3, 8, 1 * MB, 64),
    C(0xd7, CACHE_UNIFIED, 3, 8, 2 * MB, 64),
    C(0xd8, CACHE_UNIFIED, 3, 8, 4 * MB, 64),
    C(0xdc, CACHE_UNIFIED, 3, 12, 1536 * KB, 64),
    C(0xdd, CACHE_UNIFIED, 3, 12, 3 * MB, 64),
    C(0xde, CACHE_UNIFIED, 3, 12, 6 * MB, 64),
    C(0xe2, CACHE_UNIFIED, 3, 16, 2 * MB, 64),
    C(0xe3, CACHE_UNIFIED, 3, 16, 4 * MB, 64),
    C(0xe4, CACHE_UNIFIED, 3, 16, 8 * MB, 64),
    C(0xea, CACHE_UNIFIED, 3, 24, 12 * MB, 64),
    C(0xeb, CACHE_UNIFIED, 3, 24, 18 * MB, 64),
    C(0xec, CACHE_UNIFIED, 3, 24, 24 * MB, 64),
};
#undef C

unsigned cpu_leaf2_descriptor(struct cpu_info *c, uint8_t desc)
{
    unsigned added = 0;
    for (unsigned i = 0; i < sizeof leaf2_table / sizeof leaf2_table[0]; i++) {
        const struct leaf2_entry *e = &leaf2_table[i];
        if (e->desc != desc)
            continue;
        unsigned level = e->level;
        /* 0x49: "3rd-level cache ... (Intel Xeon processor MP, Family 0FH,
         * Model 06H); 2nd-level cache" on everything else. */
        if (desc == 0x49 && c->family == 0xf && c->model == 6)
            level = 3;
        unsigned before = c->ncaches;
        add(c, (enum cache_kind)e->kind, level, e->ways, e->size, e->line);
        added += c->ncaches - before;
    }
    return added;
}

/* Every leaf-2 execution recorded; caches too unless leaf 4 gave them. */
static void decode_leaf2(struct cpu_info *c, bool with_caches)
{
    for (unsigned i = 0; i < c->nraw; i++) {
        if (c->raw[i].leaf != 2)
            continue;
        const struct cpuid_regs *r = &c->raw[i].r;
        uint32_t regs[4] = { r->eax, r->ebx, r->ecx, r->edx };
        for (unsigned reg = 0; reg < 4; reg++) {
            if (regs[reg] >> 31)
                continue; /* bit 31 set: this register holds no descriptors */
            for (unsigned b = reg == 0 ? 1 : 0; b < 4; b++) { /* AL is a count */
                uint8_t desc = (uint8_t)(regs[reg] >> (8 * b));
                if (!desc)
                    continue;
                if (with_caches) {
                    cpu_leaf2_descriptor(c, desc);
                    continue;
                }
                /* Only the TLB part of the descriptor. */
                for (unsigned t = 0; t < sizeof leaf2_table / sizeof leaf2_table[0]; t++) {
                    const struct leaf2_entry *e = &leaf2_table[t];
                    if (e->desc == desc && is_tlb((enum cache_kind)e->kind))
                        add(c, (enum cache_kind)e->kind, e->level, e->ways, e->size, e->line);
                }
            }
        }
    }
}

/* ---- Deterministic cache parameters (leaf 4, 0x8000001D) -------------------
 * EAX[4:0] type (1 data, 2 instruction, 3 unified, 0 = no more), EAX[7:5]
 * level, EAX[9] fully associative; EBX[31:22] ways-1, EBX[21:12]
 * partitions-1, EBX[11:0] line-1; ECX sets-1. */
static unsigned decode_deterministic(struct cpu_info *c, uint32_t leaf)
{
    unsigned found = 0;
    for (uint32_t sub = 0; sub < 32; sub++) {
        const struct cpuid_regs *r = cpu_raw_find(c, leaf, sub);
        if (!r)
            break;
        unsigned type = r->eax & 0x1f;
        if (type == 0)
            break;
        if (type > 3)
            continue;
        unsigned level = (r->eax >> 5) & 7;
        uint32_t ways = ((r->ebx >> 22) & 0x3ff) + 1;
        uint32_t parts = ((r->ebx >> 12) & 0x3ff) + 1;
        uint32_t line = (r->ebx & 0xfff) + 1;
        uint32_t sets = r->ecx + 1;
        uint64_t size = (uint64_t)ways * parts * line * sets;
        unsigned w = ((r->eax >> 9) & 1) ? FULL : ways; /* ways <= 1024 */
        enum cache_kind kind = type == 1 ? CACHE_DATA : type == 2 ? CACHE_INSN : CACHE_UNIFIED;
        add(c, kind, level, w, size > 0xffffffffu ? 0xffffffffu : (uint32_t)size, line);
        found++;
    }
    return found;
}

/* ---- AMD-style 0x80000005 / 0x80000006 -------------------------------------
 * AMD APM Vol. 3, Fn8000_0005 (L1: 8-bit associativity, 0xFF = full) and
 * Fn8000_0006 (L2/L3: 4-bit associativity code). */
static unsigned amd_l2_ways(unsigned code)
{
    /* 0 = disabled (handled by the caller), 9 = "see Fn8000_001D". */
    static const uint16_t ways[16] = { 0, 1, 2, 3, 4, 0, 8, 0, 16, 0, 32, 48, 64, 96, 128, FULL };
    if (code == 5)
        return 6;
    return ways[code & 0xf];
}

static unsigned amd_l1_ways(unsigned code)
{
    return code == 0xff ? FULL : code;
}

static void amd_l1_tlbs(struct cpu_info *c, uint32_t reg, uint32_t page_kib)
{
    /* [31:24] data assoc, [23:16] data entries, [15:8] insn assoc, [7:0] insn entries */
    add(c, CACHE_TLB_DATA, 1, amd_l1_ways((reg >> 24) & 0xff), (reg >> 16) & 0xff, page_kib);
    add(c, CACHE_TLB_INSN, 1, amd_l1_ways((reg >> 8) & 0xff), reg & 0xff, page_kib);
}

static void amd_l2_tlbs(struct cpu_info *c, uint32_t reg, uint32_t page_kib)
{
    /* Upper half zero: a unified TLB described by the lower half. */
    unsigned d_code = (reg >> 28) & 0xf, d_entries = (reg >> 16) & 0xfff;
    unsigned i_code = (reg >> 12) & 0xf, i_entries = reg & 0xfff;
    if ((reg >> 16) == 0) {
        if (i_code)
            add(c, CACHE_TLB_UNIFIED, 2, amd_l2_ways(i_code), i_entries, page_kib);
        return;
    }
    if (d_code)
        add(c, CACHE_TLB_DATA, 2, amd_l2_ways(d_code), d_entries, page_kib);
    if (i_code)
        add(c, CACHE_TLB_INSN, 2, amd_l2_ways(i_code), i_entries, page_kib);
}

static void decode_amd_style(struct cpu_info *c, bool with_caches)
{
    const struct cpuid_regs *r;
    if (c->max_ext_leaf >= 0x80000005 && (r = cpu_raw_find(c, 0x80000005, 0))) {
        /* EAX (2M/4M TLBs) is reserved on K5/K6 and Centaur: zero there. */
        amd_l1_tlbs(c, r->eax, PAGE_2M);
        amd_l1_tlbs(c, r->ebx, PAGE_4K);
        if (with_caches) {
            add(c, CACHE_DATA, 1, amd_l1_ways((r->ecx >> 16) & 0xff), ((r->ecx >> 24) & 0xff) * KB,
                r->ecx & 0xff);
            add(c, CACHE_INSN, 1, amd_l1_ways((r->edx >> 16) & 0xff), ((r->edx >> 24) & 0xff) * KB,
                r->edx & 0xff);
        }
    }
    if (c->max_ext_leaf >= 0x80000006 && (r = cpu_raw_find(c, 0x80000006, 0))) {
        amd_l2_tlbs(c, r->eax, PAGE_2M);
        amd_l2_tlbs(c, r->ebx, PAGE_4K);
        if (!with_caches)
            return;
        unsigned l2_code = (r->ecx >> 12) & 0xf;
        uint32_t l2_kib = (r->ecx >> 16) & 0xffff;
        /* VIA C3 Nehemiah stepping 1 reports 65 KB for its 64 KB L2 (Linux,
         * arch/x86/kernel/cpu/cacheinfo.c, cpu_detect_cache_sizes()). */
        if (c->vendor == VENDOR_CENTAUR && c->family == 6 && c->model == 9 && c->stepping == 1 &&
            l2_kib == 65)
            l2_kib = 64;
        if (c->vendor == VENDOR_CENTAUR) {
            /* Centaur uses this layout but not AMD's code 0 = "disabled". */
            add(c, CACHE_UNIFIED, 2, l2_code ? amd_l2_ways(l2_code) : 0, l2_kib * KB,
                r->ecx & 0xff);
        } else if (l2_code) {
            add(c, CACHE_UNIFIED, 2, amd_l2_ways(l2_code), l2_kib * KB, r->ecx & 0xff);
        }
        /* L3: EDX[31:18] in 512 KB units (the whole package), AMD only. */
        unsigned l3_code = (r->edx >> 12) & 0xf;
        uint32_t l3_units = (r->edx >> 18) & 0x3fff;
        if ((c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON) && l3_code && l3_units)
            add(c, CACHE_UNIFIED, 3, amd_l2_ways(l3_code), l3_units * 512 * KB, r->edx & 0xff);
    }
}

void cpu_decode_caches(struct cpu_info *c)
{
    c->ncaches = 0;
    bool intel = c->vendor == VENDOR_INTEL;
    unsigned deterministic = 0;
    if (c->max_leaf >= 4 && c->vendor != VENDOR_AMD && c->vendor != VENDOR_HYGON)
        deterministic = decode_deterministic(c, 4);
    if (!deterministic && c->max_ext_leaf >= 0x8000001d && cpu_has(c, FEAT_TOPOEXT))
        deterministic = decode_deterministic(c, 0x8000001d);
    if (intel) {
        if (c->max_leaf >= 2)
            decode_leaf2(c, deterministic == 0);
    } else {
        decode_amd_style(c, deterministic == 0);
    }
}
