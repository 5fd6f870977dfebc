/* Attribution of sampled instruction pointers (harness/sample.h): pure
 * arithmetic on addresses, so the unit tests can state every case. */
#include "sample.h"

static bool within(uint64_t ip, uint64_t lo, uint64_t hi)
{
    return ip >= lo && ip < hi;
}

enum sample_where sample_locate(const struct sample_layout *l, uint64_t ip, uint32_t *offset, uint32_t *copy)
{
    uint64_t span = (uint64_t)l->copies * l->copy_size;
    if (l->copy_size && within(ip, l->entry, l->entry + span)) {
        uint64_t rel = ip - l->entry;
        *copy = (uint32_t)(rel / l->copy_size);
        *offset = (uint32_t)(rel % l->copy_size);
        return SAMPLE_IN_BODY;
    }
    if (within(ip, l->loop_lo, l->loop_hi) || within(ip, l->loop2_lo, l->loop2_hi))
        return SAMPLE_IN_LOOP;
    if (within(ip, l->handler_lo, l->handler_hi))
        return SAMPLE_IN_HANDLER;
    return SAMPLE_ELSEWHERE;
}

void sample_attribute(const struct sample_layout *l, const uint64_t *ips, uint32_t n, struct sample_profile *p)
{
    *p = (struct sample_profile){ 0 };
    uint32_t ncopy = sizeof p->by_copy / sizeof p->by_copy[0];
    p->per_copy_max = l->copies < ncopy ? l->copies : ncopy;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t offset = 0, copy = 0;
        p->total++;
        switch (sample_locate(l, ips[i], &offset, &copy)) {
        case SAMPLE_IN_BODY:
            if (offset >= SAMPLE_OFFSETS_MAX) { /* a copy too long to attribute byte by byte */
                p->elsewhere++;
                break;
            }
            p->body++;
            p->at[offset]++;
            if (copy < ncopy)
                p->by_copy[copy]++;
            break;
        case SAMPLE_IN_LOOP:
            p->loop++;
            break;
        case SAMPLE_IN_HANDLER:
            p->handler++;
            break;
        default:
            p->elsewhere++;
        }
    }
}
