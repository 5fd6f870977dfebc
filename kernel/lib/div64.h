/* 64-bit division by shift-and-subtract on 32-bit halves.
 * The kernel links no libgcc (Debian's is built for i686 and may hold CMOV),
 * so the compiler's __udivdi3 family is provided on top of this. */
#ifndef CK_DIV64_H
#define CK_DIV64_H
#include <stdint.h>

/* Quotient of n / d; the remainder goes to *rem when rem is not NULL.
 * Division by zero returns UINT64_MAX and remainder n (never traps). */
uint64_t u64_divmod(uint64_t n, uint64_t d, uint64_t *rem);

#endif
