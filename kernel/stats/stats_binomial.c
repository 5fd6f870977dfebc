/* The standard error of a share k of n independent draws (a sampled
 * body's instruction, harness/sample.h): sqrt(p(1-p)/n) with p = k/n, in
 * integers (the 32-bit kernel core has no SSE from the compiler). */
#include "stats.h"
#include "stats_wide.h"

/* x 10^4 (hundredths of a percent) = sqrt(k(n-k)/n^3) x 10^4
 * = sqrt(k(n-k) x 10^8 / n^3), rounded to nearest. */
uint32_t stats_binomial_error_x100(uint32_t k, uint32_t n)
{
    if (n == 0 || k > n)
        return 0;
    uint64_t num = (uint64_t)k * (n - k);
    uint64_t n3 = (uint64_t)n * n * n;
    /* num x 10^8 overflows 64 bits past n ~ 2^27: scale the divisor down instead. */
    uint64_t q = n3 > 0xffffffffull ? num * 1000000ull / (n3 / 100) : num * 100000000ull / n3;
    uint64_t s = isqrt_u64(q * 4); /* 2 x sqrt(q): one more bit to round with */
    return (uint32_t)((s + 1) / 2);
}
