/* The driver-independent half of using a PMU: argument checks, RDPMC
 * indices and the MSR access that keeps evidence. */
#include "pmu.h"

int pmu_msr_rd(struct pmu_driver *d, uint32_t msr, uint64_t *v)
{
    d->last_msr = msr;
    d->last_status = msr_read(d->msr, msr, v);
    return d->last_status;
}

int pmu_msr_wr(struct pmu_driver *d, uint32_t msr, uint64_t v)
{
    d->last_msr = msr;
    d->last_status = msr_write(d->msr, msr, v);
    return d->last_status;
}

int pmu_program(struct pmu_driver *d, unsigned counter, const struct pmu_eventsel *ev)
{
    if (!pmu_counter_valid(d, counter))
        return PMU_ERR_COUNTER;
    /* Nothing is written before its old value is safe. */
    if (!d->saved_done)
        return PMU_ERR_NOT_SAVED;
    if (!pmu_event_allowed(d, counter, ev))
        return PMU_ERR_EVENT;
    return d->ops->program(d, counter, ev);
}

int pmu_read(struct pmu_driver *d, unsigned counter, uint64_t *value)
{
    if (!pmu_counter_valid(d, counter))
        return PMU_ERR_COUNTER;
    uint64_t v = 0;
    int r = d->ops->read(d, counter, &v);
    *value = v & pmu_width_mask(pmu_counter_width(d, counter));
    return r;
}

int pmu_stop(struct pmu_driver *d)
{
    if (d->kind == PMU_NONE)
        return PMU_ERR_KIND;
    if (!d->saved_done)
        return PMU_ERR_NOT_SAVED;
    int r = d->ops->stop(d);
    d->programmed = 0;
    return r;
}

bool pmu_rdpmc_index(const struct pmu_driver *d, unsigned counter, uint32_t *ecx)
{
    if (!d->has_rdpmc || !pmu_counter_valid(d, counter))
        return false;
    if (PMU_IS_FIXED(counter))
        /* SDM vol. 2 RDPMC: ECX[30] = 1 selects the fixed-function counters. */
        *ecx = (1u << 30) | (counter - PMU_FIXED_BASE);
    else
        *ecx = counter; /* P55C/P6: 0-1; arch: 0..n-1; AMD: 0-3 (0-5 with PerfCtrExtCore) */
    return true;
}

bool pmu_saved_value(const struct pmu_driver *d, uint32_t msr, uint64_t *v)
{
    for (unsigned i = 0; i < d->nsaved; i++) {
        if (d->saved[i].msr == msr) {
            if (d->saved[i].status != 0)
                return false;
            *v = d->saved[i].value;
            return true;
        }
    }
    return false;
}

bool pmu_cpuid_leaf(const struct cpu_info *c, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
    for (unsigned i = 0; i < c->nraw && i < CPU_RAW_MAX; i++) {
        if (c->raw[i].leaf == leaf && c->raw[i].subleaf == subleaf) {
            *r = c->raw[i].r;
            return true;
        }
    }
    return false;
}

void pmu_set_proof(struct pmu_driver *d, int slot, unsigned counter, uint16_t code, uint8_t umask,
                   uint8_t flags)
{
    struct pmu_proof_slot *p = &d->proof[slot];
    p->used = true;
    p->counter = counter;
    p->sel = (struct pmu_eventsel){ 0 };
    p->sel.code = code;
    p->sel.umask = umask;
    p->sel.flags = flags;
    if (PMU_IS_FIXED(counter)) {
        p->sel.name = d->fixed_events[counter - PMU_FIXED_BASE].name;
        return;
    }
    for (unsigned i = 0; i < d->nevents; i++) {
        const struct pmu_event *e = &d->events[i];
        if (e->code == code && e->umask == umask && (!e->counters || ((e->counters >> counter) & 1))) {
            p->sel.name = e->name;
            p->sel.counters = e->counters;
            return;
        }
    }
}
