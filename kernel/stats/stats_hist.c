/* Histogram bins over [min, max]; rendering is the report's business. */
#include <stddef.h>
#include "stats.h"

uint32_t stats_histogram(const uint64_t *samples, uint32_t n, uint32_t nbins,
                         uint32_t *bins, uint64_t *lo, uint64_t *width)
{
    if (!samples || !bins || !lo || !width || n == 0 || nbins == 0)
        return 0;
    uint64_t min = samples[0], max = samples[0];
    for (uint32_t i = 1; i < n; i++) {
        if (samples[i] < min)
            min = samples[i];
        if (samples[i] > max)
            max = samples[i];
    }
    /* ceil(span / nbins) with span = range + 1 values, written as
     * floor(range / nbins) + 1 so that span = 2^64 needs no 65th bit. */
    uint64_t range = max - min;
    uint64_t w = range / nbins;
    w = (w == UINT64_MAX) ? UINT64_MAX : w + 1;
    uint64_t used = range / w + 1;
    if (used > nbins) /* only in the clamped 2^64 case */
        used = nbins;

    for (uint32_t i = 0; i < nbins; i++)
        bins[i] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t b = (samples[i] - min) / w;
        bins[b < used ? b : used - 1]++;
    }
    *lo = min;
    *width = w;
    return (uint32_t)used;
}
