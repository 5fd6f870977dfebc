/* The simulated PMU MSR file (see msr_sim.h). Semantics written from the
 * manuals' descriptions, independently of the drivers. */
#include <string.h>
#include "platform/fault.h"
#include "msr_sim.h"

#define GP_FAULT FAULT_CODE(13)

enum slot_kind { S_NONE, S_CTL, S_CTR, S_FIXED_CTR, S_FIXED_CTRL, S_GLOBAL, S_CAPS, S_STATUS, S_UCODE, S_CLOCK };
struct slot {
    enum slot_kind kind;
    uint64_t *reg;
    unsigned width;      /* register width in bits */
    bool sext_write;     /* writes take bits 31:0 and sign-extend */
    bool read_only;
    int index;
};

static uint64_t mask_of(unsigned width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static uint64_t caps_value(const struct msr_sim *s)
{
    return s->full_width ? (1ull << 13) : 0;
}

static uint64_t caps_storage;
static uint64_t status_storage;

static struct slot find(struct msr_sim *s, uint32_t msr)
{
    struct slot r = { S_NONE, 0, 64, false, false, 0 };
    if (s->ucode != SIM_UCODE_NONE && msr == 0x8B) {
        if (s->ucode == SIM_UCODE_AMD)
            s->sign_id = s->ucode_rev;
        return (struct slot){ S_UCODE, &s->sign_id, 64, false, s->ucode == SIM_UCODE_AMD, 0 };
    }
    if (s->aperf && (msr == 0xE7 || msr == 0xE8))
        return (struct slot){ S_CLOCK, msr == 0xE8 ? &s->aperf_v : &s->mperf_v, 64, false, false, 0 };
    switch (s->family) {
    case SIM_P5:
        if (msr == 0x11) r = (struct slot){ S_CTL, &s->cesr, 32, false, false, 0 };
        if (msr == 0x12 || msr == 0x13)
            r = (struct slot){ S_CTR, &s->ctr[msr - 0x12], 40, false, false, (int)(msr - 0x12) };
        break;
    case SIM_P6:
        if (msr == 0x186 || msr == 0x187)
            r = (struct slot){ S_CTL, &s->ctl[msr - 0x186], 32, false, false, (int)(msr - 0x186) };
        if (msr == 0xC1 || msr == 0xC2)
            r = (struct slot){ S_CTR, &s->ctr[msr - 0xC1], 40, true, false, (int)(msr - 0xC1) };
        break;
    case SIM_ARCH:
        if (msr >= 0x186 && msr < 0x186 + s->gp)
            r = (struct slot){ S_CTL, &s->ctl[msr - 0x186], 32, false, false, (int)(msr - 0x186) };
        if (msr >= 0xC1 && msr < 0xC1 + s->gp)
            r = (struct slot){ S_CTR, &s->ctr[msr - 0xC1], s->gp_width, true, false, (int)(msr - 0xC1) };
        if (s->full_width && msr >= 0x4C1 && msr < 0x4C1 + s->gp)
            r = (struct slot){ S_CTR, &s->ctr[msr - 0x4C1], s->gp_width, false, false, (int)(msr - 0x4C1) };
        if (s->has_caps && msr == 0x345) {
            caps_storage = caps_value(s);
            r = (struct slot){ S_CAPS, &caps_storage, 64, false, true, 0 };
        }
        if (s->version >= 2) {
            if (msr >= 0x309 && msr < 0x309 + s->fixed)
                r = (struct slot){ S_FIXED_CTR, &s->fixed_ctr[msr - 0x309], s->fixed_width, false, false,
                                   (int)(msr - 0x309) };
            if (msr == 0x38D) r = (struct slot){ S_FIXED_CTRL, &s->fixed_ctrl, 4 * s->fixed, false, false, 0 };
            if (msr == 0x38F) r = (struct slot){ S_GLOBAL, &s->global_ctrl, 64, false, false, 0 };
            if (msr == 0x38E) r = (struct slot){ S_STATUS, &status_storage, 64, false, true, 0 };
        }
        break;
    case SIM_AMD:
        if (msr >= 0xC0010000u && msr < 0xC0010004u)
            r = (struct slot){ S_CTL, &s->ctl[msr - 0xC0010000u], 64, false, false, (int)(msr - 0xC0010000u) };
        if (msr >= 0xC0010004u && msr < 0xC0010008u)
            r = (struct slot){ S_CTR, &s->ctr[msr - 0xC0010004u], 48, false, false, (int)(msr - 0xC0010004u) };
        if (s->core_ext && msr >= 0xC0010200u && msr < 0xC001020Cu) {
            unsigned i = (msr - 0xC0010200u) / 2;
            if ((msr & 1) == 0)
                r = (struct slot){ S_CTL, &s->ctl[i], 64, false, false, (int)i };
            else
                r = (struct slot){ S_CTR, &s->ctr[i], 48, false, false, (int)i };
        }
        if (s->version >= 2 && msr == 0xC0000301u)
            r = (struct slot){ S_GLOBAL, &s->global_ctrl, 64, false, false, 0 };
        break;
    }
    return r;
}

/* Bits of the global enable that correspond to counters that exist. */
static uint64_t global_valid(const struct msr_sim *s)
{
    uint64_t v = mask_of(s->gp);
    if (s->family == SIM_ARCH)
        v |= mask_of(s->fixed) << 32;
    return v;
}

static void trace(struct msr_sim *s, char op, uint32_t msr, uint64_t value)
{
    if (s->ntrace < sizeof s->trace / sizeof s->trace[0]) {
        s->trace[s->ntrace].op = op;
        s->trace[s->ntrace].msr = msr;
        s->trace[s->ntrace++].value = value;
    }
}

void sim_cpuid1(struct msr_sim *s)
{
    trace(s, 'c', 0, 1);
    if (s->ucode == SIM_UCODE_INTEL && s->mode != SIM_GP)
        s->sign_id = (uint64_t)s->ucode_rev << 32;
}

/* The code around one access retires: the first half (before) or the rest. */
static void access_cost(struct msr_sim *s, bool before)
{
    uint64_t insn = s->access_cost.insn, cyc = s->access_cost.cycles, br = s->access_cost.branches;
    if (before)
        sim_run(s, insn / 2, cyc / 2, br / 2);
    else
        sim_run(s, insn - insn / 2, cyc - cyc / 2, br - br / 2);
}

static int read_register(struct msr_sim *s, uint32_t msr, uint64_t *value)
{
    struct slot sl = find(s, msr);
    if (sl.kind == S_NONE || s->mode == SIM_GP) {
        s->faults++;
        s->last_fault_msr = msr;
        return GP_FAULT;
    }
    *value = s->mode == SIM_DEAD ? 0 : (*sl.reg & mask_of(sl.width));
    return 0;
}

static int write_register(struct msr_sim *s, uint32_t msr, uint64_t value)
{
    struct slot sl = find(s, msr);
    if (sl.kind == S_NONE || s->mode == SIM_GP || sl.read_only ||
        (sl.kind == S_GLOBAL && (value & ~global_valid(s)))) {
        s->faults++;
        s->last_fault_msr = msr;
        return GP_FAULT;
    }
    if (s->mode == SIM_DEAD)
        return 0;
    if (sl.sext_write) {
        value &= 0xffffffffull;
        if (value & 0x80000000ull)
            value |= ~0xffffffffull;
    }
    *sl.reg = value & mask_of(sl.width);
    return 0;
}

static int sim_read(void *ctx, uint32_t msr, uint64_t *value)
{
    struct msr_sim *s = ctx;
    s->reads++;
    trace(s, 'r', msr, 0);
    access_cost(s, true);
    int r = read_register(s, msr, value);
    access_cost(s, false);
    return r;
}

static int sim_write(void *ctx, uint32_t msr, uint64_t value)
{
    struct msr_sim *s = ctx;
    s->writes++;
    trace(s, 'w', msr, value);
    access_cost(s, true);
    int r = write_register(s, msr, value);
    access_cost(s, false);
    return r;
}

static void init_common(struct msr_sim *s, enum sim_family f)
{
    memset(s, 0, sizeof *s);
    s->family = f;
    s->ops.read = sim_read;
    s->ops.write = sim_write;
    s->ops.ctx = s;
}

void sim_init_p5(struct msr_sim *s, bool mmx)
{
    init_common(s, SIM_P5);
    s->mmx = mmx;
    s->gp = 2;
    s->gp_width = 40;
}

void sim_init_p6(struct msr_sim *s)
{
    init_common(s, SIM_P6);
    s->gp = 2;
    s->gp_width = 40;
}

void sim_init_arch(struct msr_sim *s, unsigned version, unsigned gp, unsigned gp_width, unsigned fixed,
                   unsigned fixed_width)
{
    init_common(s, SIM_ARCH);
    s->version = version;
    s->gp = gp;
    s->gp_width = gp_width;
    s->fixed = version >= 2 ? fixed : 0;
    s->fixed_width = fixed_width;
    /* Post-RESET: general counters globally enabled, fixed ones not. */
    if (version >= 2)
        s->global_ctrl = mask_of(gp);
}

void sim_init_amd(struct msr_sim *s, bool core_ext)
{
    init_common(s, SIM_AMD);
    s->core_ext = core_ext;
    s->gp = core_ext ? 6 : 4;
    s->gp_width = 48;
}

const struct msr_ops *sim_ops(struct msr_sim *s)
{
    return &s->ops;
}

bool sim_get(struct msr_sim *s, uint32_t msr, uint64_t *v)
{
    struct slot sl = find(s, msr);
    if (sl.kind == S_NONE)
        return false;
    *v = *sl.reg & mask_of(sl.width);
    return true;
}

bool sim_set(struct msr_sim *s, uint32_t msr, uint64_t v)
{
    struct slot sl = find(s, msr);
    if (sl.kind == S_NONE || sl.read_only)
        return false;
    *sl.reg = v & mask_of(sl.width);
    return true;
}

struct work { uint64_t insn, cycles, branches; };

static void advance(uint64_t *ctr, unsigned width, uint64_t by)
{
    *ctr = (*ctr + by) & mask_of(width);
}

/* P5: clock mode counts cycles for the events active every clock here. */
static uint64_t p5_count(const struct msr_sim *s, unsigned c, unsigned field, const struct work *w)
{
    unsigned ev = field & 0x3f, cc = (field >> 6) & 7;
    bool ring_ok = s->cpl < 3 ? (cc & 1) : (cc & 2);
    if (!ring_ok)
        return 0;
    if (cc & 4) /* clocks while the event condition holds */
        return (ev == 0x16 || (ev == 0x30 && c == 0 && s->mmx)) ? w->cycles : 0;
    switch (ev) {
    case 0x16: return w->insn;
    case 0x17: return w->insn / 2;
    case 0x12: return w->branches;
    default: return 0;
    }
}

static bool sel_ring_ok(const struct msr_sim *s, uint64_t sel)
{
    return s->cpl == 0 ? (sel & (1u << 17)) : (sel & (1u << 16));
}

static uint64_t p6_count(uint64_t sel, const struct work *w)
{
    switch (sel & 0xff) {
    case 0xC0: return w->insn;
    case 0xC2: return w->insn;
    case 0x79: return w->cycles;
    case 0xC4: return w->branches;
    default: return 0;
    }
}

static uint64_t arch_count(uint64_t sel, const struct work *w)
{
    unsigned ev = sel & 0xff, um = (sel >> 8) & 0xff;
    if (ev == 0xC0 && um == 0) return w->insn;
    if (ev == 0x3C && (um == 0 || um == 1)) return w->cycles;
    if (ev == 0xC4 && um == 0) return w->branches;
    return 0;
}

static uint64_t amd_count(uint64_t sel, const struct work *w)
{
    unsigned ev = (unsigned)(sel & 0xff) | (unsigned)(((sel >> 32) & 0xf) << 8);
    switch (ev) {
    case 0xC0: return w->insn;
    case 0x76: return w->cycles;
    case 0xC2: return w->branches;
    default: return 0;
    }
}

void sim_run(struct msr_sim *s, uint64_t instructions, uint64_t cycles, uint64_t branches)
{
    struct work w = { instructions, cycles, branches };
    if (s->mode != SIM_LIVE)
        return;
    if (s->aperf && s->mperf_den) {
        s->aperf_v += cycles;
        s->mperf_rest += cycles * s->mperf_num; /* exact over many runs: keep the remainder */
        s->mperf_v += s->mperf_rest / s->mperf_den;
        s->mperf_rest %= s->mperf_den;
    }
    switch (s->family) {
    case SIM_P5:
        for (unsigned c = 0; c < 2; c++)
            advance(&s->ctr[c], 40, p5_count(s, c, (unsigned)(s->cesr >> (16 * c)) & 0x3ff, &w));
        break;
    case SIM_P6:
        if (!(s->ctl[0] & (1u << 22)))
            break; /* EN in PerfEvtSel0 gates both counters */
        for (unsigned c = 0; c < 2; c++)
            if (sel_ring_ok(s, s->ctl[c]))
                advance(&s->ctr[c], 40, p6_count(s->ctl[c], &w));
        break;
    case SIM_ARCH:
        for (unsigned c = 0; c < s->gp; c++) {
            bool global = s->version < 2 || ((s->global_ctrl >> c) & 1);
            if ((s->ctl[c] & (1u << 22)) && global && sel_ring_ok(s, s->ctl[c]))
                advance(&s->ctr[c], s->gp_width, arch_count(s->ctl[c], &w));
        }
        for (unsigned i = 0; i < s->fixed && !s->fixed_frozen; i++) {
            unsigned field = (unsigned)(s->fixed_ctrl >> (4 * i)) & 3;
            bool ring_ok = s->cpl == 0 ? (field & 1) : (field & 2);
            if (!ring_ok || !((s->global_ctrl >> (32 + i)) & 1))
                continue;
            uint64_t by = i == 0 ? w.insn : i == 3 ? 4 * w.cycles : w.cycles;
            advance(&s->fixed_ctr[i], s->fixed_width, by);
        }
        break;
    case SIM_AMD:
        for (unsigned c = 0; c < s->gp; c++) {
            bool global = s->version < 2 || ((s->global_ctrl >> c) & 1);
            if ((s->ctl[c] & (1u << 22)) && global && sel_ring_ok(s, s->ctl[c]))
                advance(&s->ctr[c], 48, amd_count(s->ctl[c], &w));
        }
        break;
    }
}
