/* The compiler calls these for 64-bit / and % on i386. They come from here
 * rather than libgcc because Debian's 32-bit libgcc targets i686 (CMOV). */
#include <stdint.h>
#include "lib/div64.h"

uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem);

uint64_t __udivdi3(uint64_t n, uint64_t d) { return u64_divmod(n, d, 0); }

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    u64_divmod(n, d, &r);
    return r;
}

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem) { return u64_divmod(n, d, rem); }

static uint64_t magnitude(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

/* C semantics: the quotient truncates toward zero, the remainder takes the
 * sign of the dividend. */
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem)
{
    uint64_t r;
    uint64_t q = u64_divmod(magnitude(n), magnitude(d), &r);
    if (rem)
        *rem = n < 0 ? -(int64_t)r : (int64_t)r;
    return (n < 0) != (d < 0) ? -(int64_t)q : (int64_t)q;
}

int64_t __divdi3(int64_t n, int64_t d) { return __divmoddi4(n, d, 0); }

int64_t __moddi3(int64_t n, int64_t d)
{
    int64_t r;
    __divmoddi4(n, d, &r);
    return r;
}
