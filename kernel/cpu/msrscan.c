/* The MSR sweep (msrscan.h): fault-safe reads of three index ranges,
 * gathered into counts, runs of present MSRs and their non-zero values.
 * Nothing here writes an MSR or formats anything. */
#include "lib/kstring.h"
#include "platform/fault.h"
#include "msrscan.h"

static const struct msrscan_run spans[MSRSCAN_RANGES] = {
    { 0x00000000u, 0x00001fffu },   /* architectural and model-specific */
    { 0xc0000000u, 0xc0001fffu },   /* AMD64 architectural (EFER, STAR ...) */
    { 0xc0010000u, 0xc0011fffu },   /* AMD model-specific */
};

const char *msrscan_unavailable(const struct cpu_info *c)
{
    if (c->generation != CPU_GEN_CPUID)
        return "no CPUID, so no RDMSR (a 486 or older)";
    if (!cpu_has(c, FEAT_MSR))
        return "CPUID.1:EDX.MSR is clear: this CPU has no RDMSR";
    return NULL;
}

void msrscan_init(struct msrscan *s, const char *unavailable)
{
    kmemset(s, 0, sizeof *s);
    s->nranges = MSRSCAN_RANGES;
    for (unsigned i = 0; i < MSRSCAN_RANGES; i++) {
        s->range[i].first = spans[i].first;
        s->range[i].last = spans[i].last;
    }
    if (unavailable) {
        s->status = MSRSCAN_SKIPPED;
        s->reason = unavailable;
    }
}

/* Where the walk through a range is: was the previous index present, and
 * is the run it belongs to listed (not beyond the cap)? */
struct walk { bool prev_present, run_listed; };

static void note_present(struct msrscan_range *r, struct walk *w, uint32_t msr, uint64_t value)
{
    r->present++;
    if (w->prev_present) {
        if (w->run_listed)
            r->runs[r->nruns - 1].last = msr;
    } else if (r->nruns < MSRSCAN_RUNS_MAX) {
        r->runs[r->nruns++] = (struct msrscan_run){ msr, msr };
        w->run_listed = true;
    } else {
        r->runs_more++;
        w->run_listed = false;
    }
    w->prev_present = true;
    if (value == 0)
        r->zero++;
    else if (r->nvalues < MSRSCAN_VALUES_MAX)
        r->values[r->nvalues++] = (struct msrscan_value){ msr, value };
    else
        r->values_more++;
}

static void refuse(struct msrscan *s, uint32_t msr, int code)
{
    s->status = MSRSCAN_REFUSED;
    s->refusal = code;
    s->refused_msr = msr;
    s->reason = code == MSR_ERR_NOT_RING0 ? "the platform refuses MSR access outside ring 0"
                                          : "the platform refused an MSR read; the scan stopped";
}

bool msrscan_range(const struct msr_ops *ops, struct msrscan *s, unsigned i)
{
    if (s->status != MSRSCAN_SCANNED || i >= s->nranges)
        return false;
    struct msrscan_range *r = &s->range[i];
    struct walk w = { false, false };
    for (uint32_t msr = r->first;; msr++) {
        uint64_t value = 0;
        int code = msr_read(ops, msr, &value);
        if (code && !FAULT_IS(code)) {
            refuse(s, msr, code);
            return false;
        }
        r->read++;
        if (code) {
            r->faults++;
            if (FAULT_VECTOR(code) < 32)
                s->fault_vectors |= 1u << FAULT_VECTOR(code);
            w.prev_present = false;
        } else {
            note_present(r, &w, msr, value);
        }
        if (msr == r->last)
            break;
    }
    return true;
}

void msrscan_all(const struct msr_ops *ops, const char *unavailable, struct msrscan *s)
{
    msrscan_init(s, unavailable);
    for (unsigned i = 0; i < s->nranges; i++)
        if (!msrscan_range(ops, s, i))
            break;
}

uint32_t msrscan_total_read(const struct msrscan *s)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < s->nranges; i++)
        n += s->range[i].read;
    return n;
}

uint32_t msrscan_total_present(const struct msrscan *s)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < s->nranges; i++)
        n += s->range[i].present;
    return n;
}

uint32_t msrscan_total_faults(const struct msrscan *s)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < s->nranges; i++)
        n += s->range[i].faults;
    return n;
}

const char *msrscan_status_name(enum msrscan_status st)
{
    switch (st) {
    case MSRSCAN_SCANNED: return "scanned";
    case MSRSCAN_SKIPPED: return "skipped";
    case MSRSCAN_REFUSED: return "refused";
    }
    return "?";
}
