/* Bounded waits on the PIT (channel 2, no interrupt): the start-up delays
 * of SDM Vol. 3A §8.4.4.1 and the bound on a processor's answer. */
#ifndef CK_BARE_SMP_WAIT_H
#define CK_BARE_SMP_WAIT_H
#include <stdbool.h>
#include <stdint.h>

/* Waits up to us microseconds, returning early once done(ctx) is true
 * (done may be NULL); returns the microseconds that passed. */
uint32_t smp_wait_us(uint32_t us, bool (*done)(void *ctx), void *ctx);

#endif
