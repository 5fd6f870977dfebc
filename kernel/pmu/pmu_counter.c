/* Which counters a driver has, how wide they are, and the wrap-around
 * arithmetic of their deltas: the layer every other part of the PMU code
 * (events, use, save/restore) stands on. */
#include "pmu.h"

uint64_t pmu_width_mask(unsigned width)
{
    if (width == 0 || width >= 64)
        return ~(uint64_t)0;
    return ((uint64_t)1 << width) - 1;
}

uint64_t pmu_delta(uint64_t before, uint64_t after, unsigned width)
{
    return (after - before) & pmu_width_mask(width);
}

bool pmu_counter_valid(const struct pmu_driver *d, unsigned counter)
{
    if (d->kind == PMU_NONE)
        return false;
    if (PMU_IS_FIXED(counter)) {
        unsigned i = counter - PMU_FIXED_BASE;
        return i < d->fixed_counters && ((d->fixed_mask >> i) & 1);
    }
    return counter < d->gp_counters;
}

unsigned pmu_counter_width(const struct pmu_driver *d, unsigned counter)
{
    return PMU_IS_FIXED(counter) ? d->fixed_width : d->gp_width;
}

/* The driver's own list of its MSRs names each counter's: no second table. */
uint32_t pmu_counter_msr(const struct pmu_driver *d, unsigned counter)
{
    struct pmu_saved_msr list[PMU_MAX_SAVED];
    if (!d->ops || !pmu_counter_valid(d, counter))
        return 0;
    unsigned n = d->ops->list_msrs(d, list, PMU_MAX_SAVED);
    for (unsigned i = 0; i < n; i++)
        if ((list[i].flags & PMU_MSR_COUNTER) && list[i].counter == counter)
            return list[i].msr;
    return 0;
}
