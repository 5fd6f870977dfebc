/* Leave the PMU as we found it: every MSR a driver may write is read first,
 * written back afterwards, and can be checked by reading it again. */
#include "pmu.h"

/* What the hardware holds after writing v to a counter that only takes
 * bits 31:0 and sign-extends bit 31 (P6, IA32_PMCx without full-width
 * writes). Written that way from the start, the write is the same one Linux
 * does (value masked to the counter width). */
static uint64_t sext32_to_width(uint64_t v, unsigned width)
{
    uint64_t low = v & 0xffffffffull;
    if (low & 0x80000000ull)
        low |= ~0xffffffffull;
    return low & pmu_width_mask(width);
}

static uint64_t restorable_value(const struct pmu_saved_msr *s)
{
    if (s->flags & PMU_MSR_SEXT32)
        return sext32_to_width(s->value, s->width);
    return s->value;
}

int pmu_save(struct pmu_driver *d)
{
    if (d->kind == PMU_NONE || !d->ops)
        return PMU_ERR_KIND;
    d->saved_done = false;
    d->programmed = 0;
    d->ctl_shadow = 0; /* our control values start from "nothing counts" */
    d->nsaved = d->ops->list_msrs(d, d->saved, PMU_MAX_SAVED);
    int first = 0;
    for (unsigned i = 0; i < d->nsaved; i++) {
        struct pmu_saved_msr *s = &d->saved[i];
        s->value = 0;
        s->status = pmu_msr_rd(d, s->msr, &s->value);
        if (s->status != 0 && first == 0)
            first = s->status;
    }
    /* A driver whose MSRs cannot all be read is never allowed to write:
     * we could not put back what we changed. */
    d->saved_done = (first == 0);
    return first;
}

int pmu_restore(struct pmu_driver *d)
{
    if (d->kind == PMU_NONE || !d->ops)
        return PMU_ERR_KIND;
    if (!d->saved_done)
        return PMU_ERR_NOT_SAVED;
    int first = d->ops->stop(d);
    d->programmed = 0;
    /* In list order: counters, then selects, then the master enable, so
     * nothing counts between writes that was not counting before. */
    for (unsigned i = 0; i < d->nsaved; i++) {
        const struct pmu_saved_msr *s = &d->saved[i];
        if (s->status != 0)
            continue;
        int r = pmu_msr_wr(d, s->write_msr, restorable_value(s));
        if (r != 0 && first == 0)
            first = r;
    }
    /* The next use needs a fresh save. */
    d->saved_done = false;
    return first;
}

unsigned pmu_verify_restore(struct pmu_driver *d, struct pmu_restore_check *out)
{
    struct pmu_restore_check c = { 0 };
    for (unsigned i = 0; i < d->nsaved; i++) {
        const struct pmu_saved_msr *s = &d->saved[i];
        if (s->status != 0)
            continue;
        uint64_t expected = restorable_value(s), actual = 0;
        c.checked++;
        if (expected != s->value)
            c.inexact++;
        if (pmu_msr_rd(d, s->msr, &actual) != 0) {
            c.faults++;
            continue;
        }
        if (actual == expected)
            continue;
        /* A counter that was counting before we came keeps counting after
         * its restore: forward movement (less than 2^32 events) is expected. */
        if ((s->flags & PMU_MSR_COUNTER) && d->ops->saved_counting(d, s->counter) &&
            pmu_delta(expected, actual, s->width) < ((uint64_t)1 << 32)) {
            c.moving++;
            continue;
        }
        if (c.mismatches == 0) {
            c.first_msr = s->msr;
            c.first_expected = expected;
            c.first_actual = actual;
        }
        c.mismatches++;
    }
    if (out)
        *out = c;
    return c.mismatches + c.faults;
}
