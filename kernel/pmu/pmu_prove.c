/* Run known code under the counters and judge whether they count. */
#include "pmu_prove.h"
#include "lib/kstring.h"

const char *pmu_reason_text(enum pmu_reason r)
{
    switch (r) {
    case PMU_REASON_OK: return "counting";
    case PMU_REASON_NO_DRIVER: return "no driver for this CPU";
    case PMU_REASON_NO_PROOF_EVENT: return "no instructions event to prove with";
    case PMU_REASON_SAVE_FAULT: return "fault reading a PMU MSR";
    case PMU_REASON_PROGRAM_FAULT: return "fault programming a counter";
    case PMU_REASON_READ_FAULT: return "fault reading a counter";
    case PMU_REASON_READS_ZERO: return "counters read zero";
    case PMU_REASON_NO_MOVE: return "counter does not move";
    case PMU_REASON_OUT_OF_WINDOW: return "counter moved by an implausible amount";
    case PMU_REASON_REFUSED: return "the operating system refused the event";
    }
    return "?";
}

const char *pmu_proof_slot_name(int slot)
{
    switch (slot) {
    case PMU_PROOF_INSN: return "instructions";
    case PMU_PROOF_CYCLES: return "cycles";
    case PMU_PROOF_BRANCH: return "branches";
    case PMU_PROOF_FIXED_INSN: return "fixed instructions";
    case PMU_PROOF_FIXED_CYCLES: return "fixed cycles";
    case PMU_PROOF_FIXED_REF: return "fixed ref cycles";
    case PMU_PROOF_SW_TASK_CLOCK: return "task clock";
    case PMU_PROOF_SW_CONTEXT_SWITCHES: return "context switches";
    case PMU_PROOF_SW_PAGE_FAULTS: return "page faults";
    case PMU_PROOF_SW_CPU_MIGRATIONS: return "cpu migrations";
    default: return "?";
    }
}

void pmu_prove_window(int slot, uint64_t instructions, uint64_t branches, uint64_t *min, uint64_t *max)
{
    switch (slot) {
    case PMU_PROOF_INSN:
    case PMU_PROOF_FIXED_INSN:
        *min = instructions;
        *max = instructions + (instructions >> PMU_PROVE_TOLERANCE_SHIFT);
        break;
    case PMU_PROOF_BRANCH:
        *min = branches;
        *max = branches + (branches >> PMU_PROVE_TOLERANCE_SHIFT);
        break;
    default: /* cycles, core or reference */
        *min = instructions / PMU_PROVE_MAX_IPC;
        if (*min == 0)
            *min = 1;
        *max = instructions * PMU_PROVE_MAX_CPI + PMU_PROVE_CYCLE_SLACK;
        break;
    }
}

static bool is_fixed_slot(int slot)
{
    return slot == PMU_PROOF_FIXED_INSN || slot == PMU_PROOF_FIXED_CYCLES || slot == PMU_PROOF_FIXED_REF;
}

static void fail(struct pmu_verdict *v, enum pmu_reason r, int fault, uint32_t msr)
{
    if (v->reason != PMU_REASON_OK)
        return; /* the first failure is the reason */
    v->reason = r;
    v->fault = fault;
    v->fault_msr = msr;
}

static uint32_t first_failed_save(const struct pmu_driver *d)
{
    for (unsigned i = 0; i < d->nsaved; i++)
        if (d->saved[i].status != 0)
            return d->saved[i].msr;
    return d->last_msr;
}

/* Judges the general (or the fixed) probes; returns whether all passed. */
static bool judge(struct pmu_verdict *v, bool fixed, bool *any)
{
    bool all_zero = true, ok = true;
    *any = false;
    for (unsigned i = 0; i < v->nprobes; i++) {
        const struct pmu_probe *p = &v->probes[i];
        if (is_fixed_slot(p->slot) != fixed)
            continue;
        *any = true;
        if (p->before || p->after)
            all_zero = false;
    }
    if (!*any)
        return false;
    for (unsigned i = 0; i < v->nprobes; i++) {
        struct pmu_probe *p = &v->probes[i];
        if (is_fixed_slot(p->slot) != fixed)
            continue;
        p->ok = p->status == 0 && p->delta >= p->expect_min && p->delta <= p->expect_max;
        if (p->ok)
            continue;
        ok = false;
        if (fixed)
            continue; /* fixed counters do not decide the verdict */
        if (all_zero)
            fail(v, PMU_REASON_READS_ZERO, 0, 0);
        else if (p->once == 0 && p->twice == 0)
            fail(v, PMU_REASON_NO_MOVE, 0, 0);
        else
            fail(v, PMU_REASON_OUT_OF_WINDOW, 0, 0);
    }
    return ok;
}

/* The evidence: every proof event the driver offers (branches only when
 * the workload says how many it has). */
static void plan_probes(const struct pmu_driver *d, const struct pmu_workload *w, struct pmu_verdict *v)
{
    for (int s = 0; s < PMU_PROOF_SLOTS; s++) {
        const struct pmu_proof_slot *ps = &d->proof[s];
        if (!ps->used || (s == PMU_PROOF_BRANCH && w->branches == 0))
            continue;
        struct pmu_probe *p = &v->probes[v->nprobes++];
        p->slot = s;
        p->event = ps->sel.name;
        p->counter = ps->counter;
        p->code = ps->sel.code;
        p->umask = ps->sel.umask;
        p->flags = ps->sel.flags;
        pmu_prove_window(s, w->instructions, w->branches, &p->expect_min, &p->expect_max);
    }
}

/* Programs every probe; false when a general counter could not be
 * programmed (fixed counters are extra evidence, not the verdict). */
static bool program_probes(struct pmu_driver *d, struct pmu_verdict *v)
{
    bool programmed = true;
    for (unsigned i = 0; i < v->nprobes; i++) {
        struct pmu_probe *p = &v->probes[i];
        p->status = pmu_program(d, p->counter, &d->proof[p->slot].sel);
        if (p->status != 0) {
            p->fault_msr = d->last_msr;
            if (is_fixed_slot(p->slot))
                continue;
            fail(v, p->status == PMU_ERR_REFUSED ? PMU_REASON_REFUSED : PMU_REASON_PROGRAM_FAULT, p->status,
                 p->fault_msr);
            programmed = false;
        }
    }
    return programmed;
}

/* Reads probe p into *value; false when a general counter failed. */
static bool read_probe(struct pmu_driver *d, struct pmu_verdict *v, struct pmu_probe *p, uint64_t *value)
{
    p->status = pmu_read(d, p->counter, value);
    if (p->status == 0)
        return true;
    p->fault_msr = d->last_msr;
    if (is_fixed_slot(p->slot))
        return true;
    fail(v, PMU_REASON_READ_FAULT, p->status, p->fault_msr);
    return false;
}

/* Every probe read, the loop run `times` over, every probe read again in
 * the same order, with nothing else between the reads: the code between a
 * counter's two reads must be the same at either length (even a branch on
 * `times` there would not cancel). Then each probe keeps its least count.
 * False on a failed read of a general counter (the reads before stop at
 * the first one). */
static bool count_run(struct pmu_driver *d, const struct pmu_workload *w, struct pmu_verdict *v,
                      unsigned times, bool first)
{
    for (unsigned i = 0; i < v->nprobes; i++)
        if (v->probes[i].status == 0 && !read_probe(d, v, &v->probes[i], &v->probes[i].before))
            return false;
    w->run(w->arg, times);
    bool read_ok = true;
    for (unsigned i = 0; i < v->nprobes; i++)
        if (v->probes[i].status == 0 && !read_probe(d, v, &v->probes[i], &v->probes[i].after))
            read_ok = false;
    for (unsigned i = 0; i < v->nprobes; i++) {
        struct pmu_probe *p = &v->probes[i];
        if (p->status != 0)
            continue;
        uint64_t n = pmu_delta(p->before, p->after, pmu_counter_width(d, p->counter));
        uint64_t *least = times == 1 ? &p->once : &p->twice;
        if (first || n < *least)
            *least = n;
    }
    return read_ok;
}

/* The loop once and twice over, PMU_PROVE_ROUNDS times each; the
 * difference of the least counts is what the loop's length alone retired. */
static bool count_workload(struct pmu_driver *d, const struct pmu_workload *w, struct pmu_verdict *v)
{
    v->rounds = PMU_PROVE_ROUNDS;
    for (unsigned r = 0; r < PMU_PROVE_ROUNDS; r++)
        for (unsigned times = 1; times <= 2; times++)
            if (!count_run(d, w, v, times, r == 0))
                return false;
    for (unsigned i = 0; i < v->nprobes; i++) {
        struct pmu_probe *p = &v->probes[i];
        p->delta = p->status == 0 && p->twice > p->once ? p->twice - p->once : 0;
    }
    return true;
}

/* The fixed counters whose probe passed: the ones events may use. */
static uint32_t fixed_proven(const struct pmu_verdict *v)
{
    uint32_t mask = 0;
    for (unsigned i = 0; i < v->nprobes; i++)
        if (is_fixed_slot(v->probes[i].slot) && v->probes[i].ok)
            mask |= 1u << (v->probes[i].counter - PMU_FIXED_BASE);
    return mask;
}

bool pmu_prove(struct pmu_driver *d, const struct pmu_workload *w, struct pmu_verdict *v)
{
    kmemset(v, 0, sizeof *v);
    v->instructions = w->instructions;
    v->branches = w->branches;
    v->restore_status = PMU_ERR_NOT_SAVED;
    v->reads = d->reads ? d->reads : "rdmsr"; /* the MSR drivers read their counters with RDMSR */
    d->fixed_proven = 0;
    if (d->kind == PMU_NONE) {
        v->reason = PMU_REASON_NO_DRIVER;
        return false;
    }
    if (!d->proof[PMU_PROOF_INSN].used) {
        v->reason = PMU_REASON_NO_PROOF_EVENT;
        return false;
    }
    plan_probes(d, w, v);
    int r = pmu_save(d);
    if (r != 0) {
        fail(v, PMU_REASON_SAVE_FAULT, r, first_failed_save(d));
        return false;
    }
    if (program_probes(d, v) && count_workload(d, w, v)) {
        bool any_fixed;
        bool gp_ok = judge(v, false, &any_fixed);
        v->fixed_counting = judge(v, true, &any_fixed) && any_fixed;
        v->counting = gp_ok && v->reason == PMU_REASON_OK;
        d->fixed_proven = v->counting ? fixed_proven(v) : 0;
    }
    v->restore_status = pmu_restore(d);
    v->restore_bad = pmu_verify_restore(d, &v->restore);
    if (d->ops->prove_more)
        d->ops->prove_more(d, v);
    return v->counting;
}
