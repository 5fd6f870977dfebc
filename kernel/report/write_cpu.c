/* The CPU in the log: a readable section for people and one "cpu" record for
 * programs. The record carries every raw leaf read, so a log can be decoded
 * again on the host (cpu_decode_raw) with newer tables. */
#include "cpu/cpu.h"
#include "cpu/cpu_core.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "record/log.h"
#include "report/screen/screen.h"
#include "uarch/uarch.h"
#include "write.h"

#define LINE_WIDTH 78

/* ---- readable ---- */

static void text_features(const struct cpu_info *c)
{
    char line[LINE_WIDTH + 24];
    size_t len = 0;
    bool any = false;
    line[0] = 0;
    for (unsigned w = 0; w < FW_COUNT; w++) {
        for (unsigned b = 0; b < 32; b++) {
            const char *n = cpu_feature_name(w, b);
            if (!n || !((c->features[w] >> b) & 1))
                continue;
            size_t nl = kstrlen(n);
            if (len && len + 1 + nl > LINE_WIDTH - 12) {
                log_text("  %-10s%s\n", any ? "" : "features:", line);
                any = true;
                len = 0;
                line[0] = 0;
            }
            if (len)
                line[len++] = ' ';
            kstrlcpy(line + len, n, sizeof line - len);
            len += nl;
        }
    }
    if (len || !any)
        log_text("  %-10s%s\n", any ? "" : "features:", len ? line : "(none)");
}

static void size_text(char *buf, size_t size, uint64_t bytes)
{
    if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0)
        ksnprintf(buf, size, "%u GiB", (unsigned)(bytes >> 30));
    else if (bytes >= 1024u * 1024u && bytes % (1024u * 1024u) == 0)
        ksnprintf(buf, size, "%u MiB", (unsigned)(bytes >> 20));
    else if (bytes >= 1024u && bytes % 1024u == 0)
        ksnprintf(buf, size, "%u KiB", (unsigned)(bytes >> 10));
    else
        ksnprintf(buf, size, "%u B", (unsigned)bytes);
}

static void ways_text(char *buf, size_t size, unsigned ways)
{
    if (ways == 0xffff)
        kstrlcpy(buf, "fully associative", size);
    else if (ways == 0)
        kstrlcpy(buf, "associativity unknown", size);
    else
        ksnprintf(buf, size, "%u-way", ways);
}

static void text_caches(const struct cpu_info *c)
{
    if (!c->ncaches)
        log_text("  caches:   (not reported)\n");
    for (unsigned i = 0; i < c->ncaches; i++) {
        const struct cache_desc *d = &c->caches[i];
        char ways[24], size[24];
        ways_text(ways, sizeof ways, d->ways);
        if (d->kind >= CACHE_TLB_DATA) {
            size_text(size, sizeof size, (uint64_t)d->line * 1024u);
            log_text("  %-10sL%u %s: %u entries, %s pages, %s\n", i ? "" : "caches:", d->level,
                        cpu_cache_kind_name((enum cache_kind)d->kind), (unsigned)d->size, size,
                        ways);
        } else {
            size_text(size, sizeof size, d->size);
            log_text("  %-10sL%u %s: %s, %s, %u-byte lines\n", i ? "" : "caches:", d->level,
                        cpu_cache_kind_name((enum cache_kind)d->kind), size, ways,
                        (unsigned)d->line);
        }
    }
}

/* The microarchitecture the identity names and where its expectations come
 * from, or why none is attached (identity sanity, kernel/uarch/identity.c). */
static void text_uarch(const struct cpu_info *c)
{
    char why[200];
    if (uarch_identity_uncertain(c, why, sizeof why)) {
        log_text("  uarch:    uncertain: %s; no expectation table attached\n", why);
        return;
    }
    const struct uarch *u = uarch_of(c), *model = uarch_llvm_of(c);
    if (!u && !model)
        log_text("  uarch:    none known; no expectation table\n");
    else
        log_text("  uarch:    %s%s%s%s\n", u && u != model ? u->name : "",
                 u && model && u != model ? ", then " : "", model ? "LLVM's model " : "",
                 model ? model->name : "");
}

static void record_uarch(const struct cpu_info *c)
{
    char why[200];
    const struct uarch *u = uarch_of(c), *model = uarch_llvm_of(c);
    if (u)
        rec_str("uarch", u->name);
    else
        rec_null("uarch");
    if (model)
        rec_str("llvm_cpu", model->name);
    else
        rec_null("llvm_cpu");
    if (uarch_identity_uncertain(c, why, sizeof why))
        rec_str("uarch_uncertain", why);
}

/* How the name was decided (cpu/cpu_core.c): by the model number, or by the
 * features against it, with the reason and the cores they fit. */
static void record_named_by(const struct cpu_info *c)
{
    char why[240];
    rec_str("named_by", cpu_named_by_name(c->named_by));
    if (c->named_by == CPU_NAMED_BY_MODEL)
        return;
    cpu_core_why(c, why, sizeof why);
    rec_str("named_why", why);
    rec_arr_open("candidates");
    for (unsigned i = 0; i < cpu_core_class_count; i++)
        if ((c->core_fits >> i) & 1)
            rec_str(NULL, cpu_core_classes[i].name);
    rec_arr_close();
}

static void text_section(const struct cpu_info *c)
{
    log_text("\n== CPU ==\n");
    log_text("  name:     %s%s\n", c->name,
             c->named_by == CPU_NAMED_BY_FEATURES ? " (named by its features)" : "");
    if (c->generation != CPU_GEN_CPUID) {
        log_text("  cpuid:    none (%s)\n", c->generation == CPU_GEN_386
                                                   ? "EFLAGS.AC cannot be toggled: a 386"
                                                   : "EFLAGS.ID cannot be toggled");
        log_text("  fpu:      %s\n", c->has_fpu ? "present" : "absent");
        return;
    }
    log_text("  vendor:   %s (\"%s\")\n", cpu_vendor_name(c->vendor), c->vendor_string);
    log_text("  family %u, model %u (0x%x), stepping %u, type %u\n", c->family, c->model,
                c->model, c->stepping, c->type);
    if (c->brand[0])
        log_text("  brand:    %s\n", c->brand);
    log_text("  leaves:   max 0x%x, extended 0x%x%s\n", (unsigned)c->max_leaf,
                (unsigned)c->max_ext_leaf, c->max_ext_leaf ? "" : " (none)");
    text_features(c);
    text_caches(c);
    log_text("  invariant TSC: %s\n", cpu_has(c, FEAT_INVARIANT_TSC) ? "yes" : "no");
    if (c->perfmon.version)
        log_text("  perfmon:  version %u, %u counters x %u bits, %u fixed x %u bits\n",
                    c->perfmon.version, c->perfmon.gp_counters, c->perfmon.gp_width,
                    c->perfmon.fixed_counters, c->perfmon.fixed_width);
    if (c->clock.ratio_den || c->clock.base_mhz)
        log_text("  clock:    TSC/crystal %u/%u, crystal %u Hz; base %u MHz, max %u MHz, "
                    "bus %u MHz\n",
                    (unsigned)c->clock.ratio_num, (unsigned)c->clock.ratio_den,
                    (unsigned)c->clock.crystal_hz, (unsigned)c->clock.base_mhz,
                    (unsigned)c->clock.max_mhz, (unsigned)c->clock.bus_mhz);
    if (cpu_has(c, FEAT_HYPERVISOR)) {
        const char *hv = cpu_hypervisor_name(c->hv_vendor);
        log_text("  hypervisor: %s (\"%s\")\n", hv ? hv : "unknown", c->hv_vendor);
    }
}

/* ---- machine ---- */

static void record_caches(const struct cpu_info *c)
{
    rec_arr_open("caches");
    for (unsigned i = 0; i < c->ncaches; i++) {
        const struct cache_desc *d = &c->caches[i];
        bool tlb = d->kind >= CACHE_TLB_DATA;
        rec_obj_open(NULL);
        rec_str("kind", cpu_cache_kind_name((enum cache_kind)d->kind));
        rec_u64("level", d->level);
        rec_u64(tlb ? "entries" : "size", d->size);
        rec_u64("ways", d->ways == 0xffff ? 0 : d->ways);
        rec_bool("full", d->ways == 0xffff);
        rec_u64(tlb ? "page_kib" : "line", d->line);
        rec_obj_close();
    }
    rec_arr_close();
}

static void record_raw(const struct cpu_info *c)
{
    rec_arr_open("raw");
    for (unsigned i = 0; i < c->nraw; i++) {
        const struct cpuid_leaf_raw *r = &c->raw[i];
        rec_obj_open(NULL);
        rec_hex("leaf", r->leaf);
        rec_u64("subleaf", r->subleaf);
        rec_hex("eax", r->r.eax);
        rec_hex("ebx", r->r.ebx);
        rec_hex("ecx", r->r.ecx);
        rec_hex("edx", r->r.edx);
        rec_obj_close();
    }
    rec_arr_close();
}

static void text_microcode(const struct cpu_info *c, const struct cpu_microcode *mc)
{
    if (c->generation != CPU_GEN_CPUID)
        return;
    if (mc && mc->known)
        log_text("  microcode: revision 0x%x\n", (unsigned)mc->revision);
    else
        log_text("  microcode: unknown (%s)\n", mc ? mc->reason : "not read");
}

static void record_microcode(const struct cpu_microcode *mc)
{
    if (mc && mc->known) {
        rec_u64("microcode", mc->revision);
        return;
    }
    rec_null("microcode");
    rec_str("microcode_reason", mc ? mc->reason : "not read");
    if (mc && mc->fault) {
        rec_hex("microcode_fault", (uint64_t)(unsigned)mc->fault);
        rec_hex("microcode_fault_msr", mc->fault_msr);
    }
}

static void text_xstate(const struct cpu_xstate *xs)
{
    if (xs && xs->known)
        log_text("  xsave:    OSXSAVE set, XCR0 0x%llx\n", (unsigned long long)xs->xcr0);
    else
        log_text("  xsave:    XCR0 unknown (%s)\n", xs && xs->reason ? xs->reason : "not read");
}

static void record_xstate(const struct cpu_xstate *xs)
{
    rec_bool("osxsave", xs && xs->osxsave);
    if (xs && xs->known) {
        rec_hex("xcr0", xs->xcr0);
    } else {
        rec_null("xcr0");
        rec_str("xcr0_reason", xs && xs->reason ? xs->reason : "not read");
    }
    if (xs && xs->supported)
        rec_hex("xcr0_supported", xs->supported);
    else
        rec_null("xcr0_supported");
}

static void record(const struct cpu_info *c, const struct cpu_microcode *mc,
                   const struct cpu_xstate *xs)
{
    rec_open("cpu");
    rec_str("generation", cpu_generation_name(c->generation));
    rec_bool("fpu", c->has_fpu);
    rec_str("vendor", cpu_vendor_name(c->vendor));
    rec_str("vendor_string", c->vendor_string);
    rec_u64("family", c->family);
    rec_u64("model", c->model);
    rec_u64("stepping", c->stepping);
    rec_u64("processor_type", c->type); /* "type" names the record */
    rec_str("name", c->name);
    record_named_by(c);
    rec_str("brand", c->brand);
    rec_hex("max_leaf", c->max_leaf);
    rec_hex("max_ext_leaf", c->max_ext_leaf);
    rec_hex("max_hv_leaf", c->max_hv_leaf);
    rec_arr_open("features");
    for (unsigned w = 0; w < FW_COUNT; w++)
        for (unsigned b = 0; b < 32; b++) {
            const char *n = cpu_feature_name(w, b);
            if (n && ((c->features[w] >> b) & 1))
                rec_str(NULL, n);
        }
    rec_arr_close();
    rec_obj_open("feature_words");
    for (unsigned w = 0; w < FW_COUNT; w++)
        rec_hex(cpu_feature_word_name(w), c->features[w]);
    rec_obj_close();
    record_caches(c);
    rec_bool("invariant_tsc", cpu_has(c, FEAT_INVARIANT_TSC));
    rec_obj_open("perfmon");
    rec_u64("version", c->perfmon.version);
    rec_u64("gp_counters", c->perfmon.gp_counters);
    rec_u64("gp_width", c->perfmon.gp_width);
    rec_u64("fixed_counters", c->perfmon.fixed_counters);
    rec_u64("fixed_width", c->perfmon.fixed_width);
    rec_hex("unavailable_events", c->perfmon.unavailable_events);
    rec_obj_close();
    rec_obj_open("clock");
    rec_u64("tsc_ratio_num", c->clock.ratio_num);
    rec_u64("tsc_ratio_den", c->clock.ratio_den);
    rec_u64("crystal_hz", c->clock.crystal_hz);
    rec_u64("base_mhz", c->clock.base_mhz);
    rec_u64("max_mhz", c->clock.max_mhz);
    rec_u64("bus_mhz", c->clock.bus_mhz);
    rec_obj_close();
    if (c->hv_vendor[0]) {
        rec_str("hypervisor", c->hv_vendor);
        const char *hv = cpu_hypervisor_name(c->hv_vendor);
        if (hv)
            rec_str("hypervisor_name", hv);
        else
            rec_null("hypervisor_name");
    } else {
        rec_null("hypervisor");
        rec_null("hypervisor_name");
    }
    record_uarch(c);
    record_microcode(mc);
    record_xstate(xs);
    record_raw(c);
    rec_close();
}

static void screen_name(const struct cpu_info *c);

void write_cpu(const struct cpu_info *c, const struct cpu_microcode *mc,
               const struct cpu_xstate *xs)
{
    text_section(c);
    text_uarch(c);
    text_microcode(c, mc);
    text_xstate(xs);
    if (c->generation != CPU_GEN_CPUID)
        log_note("info", "cpu", "no CPUID instruction: identified as %s by EFLAGS tests",
                    c->name);
    char why[200];
    if (uarch_identity_uncertain(c, why, sizeof why))
        log_note("info", "cpu", "uncertain microarchitecture: %s; no expectations attached", why);
    const struct cpu_core_class *k = cpu_core_named(c);
    if (k) {
        char core_why[240];
        cpu_core_why(c, core_why, sizeof core_why);
        log_note("info", "cpu", "%s, named by its features: %s; LLVM's model: %s%s%s", c->name,
                 core_why, k->llvm, k->nearest ? ", the nearest: LLVM 16 has no model of " : "",
                 k->nearest ? k->name : "");
    }
    if (cpu_has(c, FEAT_HYPERVISOR) && !c->hv_vendor[0])
        log_note("warn", "cpu", "hypervisor bit set but leaf 0x40000000 gave no vendor");
    record(c, mc, xs);
    screen_name(c);
}

/* list and help (nothing is measured): the CPU in one line, and the same record. */
void write_cpu_brief(const struct cpu_info *c, const struct cpu_microcode *mc,
                     const struct cpu_xstate *xs)
{
    const char *brand = c->brand;
    while (*brand == ' ')
        brand++;
    if (c->generation != CPU_GEN_CPUID)
        log_text("cpu: %s (no CPUID)\n", c->name);
    else
        log_text("cpu: %s, %s family %u model %u stepping %u%s%s%s%s\n", c->name, cpu_vendor_name(c->vendor),
                 c->family, c->model, c->stepping, brand[0] ? " (" : "", brand, brand[0] ? ")" : "",
                 cpu_has(c, FEAT_HYPERVISOR) ? ", under a hypervisor" : "");
    record(c, mc, xs);
    screen_name(c);
}

static void screen_name(const struct cpu_info *c)
{
    const char *brand = c->brand;
    while (*brand == ' ') /* Intel pads the brand string on the left */
        brand++;
    char shown[96];
    /* First, so that the header's shortening keeps it. */
    /* A core named by its features shows that name, not the brand (which a
     * hypervisor may have made up too). */
    ksnprintf(shown, sizeof shown, "%s%s",
              c->named_by == CPU_NAMED_BY_MODEL && uarch_identity_uncertain(c, NULL, 0)
                  ? "(uarch uncertain) " : "",
              brand[0] && c->named_by == CPU_NAMED_BY_MODEL ? brand : c->name);
    screen_cpu(shown);
}
