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

/* Integer square root (floor), for the error below without floating point
 * (the 32-bit kernel core has no SSE from the compiler). */
static uint64_t isqrt(uint64_t v)
{
    uint64_t r = 0, bit = 1ull << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

/* sqrt(p(1-p)/n) x 10^4 (hundredths of a percent) = sqrt(k(n-k)/n^3) x 10^4
 * = sqrt(k(n-k) x 10^8 / n^3), rounded to nearest. */
uint32_t sample_share_error_x100(uint32_t k, uint32_t n)
{
    if (n == 0 || k > n)
        return 0;
    uint64_t num = (uint64_t)k * (n - k);
    uint64_t n3 = (uint64_t)n * n * n;
    /* num x 10^8 overflows 64 bits past n ~ 2^27; scale the divisor down instead. */
    uint64_t q = n3 > 0xffffffffull ? num * 1000000ull / (n3 / 100) : num * 100000000ull / n3;
    uint64_t s = isqrt(q * 4);   /* 2 x sqrt(q): one more bit to round with */
    return (uint32_t)((s + 1) / 2);
}
