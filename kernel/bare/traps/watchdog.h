/* The watchdog over a loaded benchmark body (struct platform's watchdog):
 * the local APIC timer in one-shot mode, the only interrupt source left
 * unmasked, with IF set only while the body is measured. */
#ifndef CK_BARE_WATCHDOG_H
#define CK_BARE_WATCHDOG_H
#include <stdbool.h>
#include <stdint.h>

/* ms > 0: arm (first use calibrates the APIC timer against the TSC);
 * 0: disarm. NULL, or why there is no watchdog on this machine. */
const char *bare_watchdog(uint32_t ms);

/* For the interrupt handler: the bound in ms when this expiry is the armed
 * watchdog's (then it is disarmed and the body is to be abandoned), 0 for a
 * stale one. Sends the EOI either way. */
uint32_t watchdog_fired(void);

/* Halts the CPU (STI; HLT; CLI) until the APIC timer, one-shot, has counted
 * about `us` microseconds: an idle wait that costs the machine nothing (an
 * emulator's host thread sleeps) where a polling loop keeps a core busy.
 * The expiry is handled as a stale watchdog one (no bound armed: EOI, on).
 * False, having waited for nothing, where the watchdog has no timer (its
 * reason: bare_watchdog) or while it is armed. */
bool apic_nap(uint32_t us);

/* Time-based sampling (bare/sampler): the APIC timer ticking every `us`
 * microseconds on `vector` (periodic mode, SDM Vol. 3A §11.5.4), unmasked;
 * NULL, or why not (the watchdog's reason, or it holds the timer).
 * apic_timer_quiet masks and stops it again (not while the watchdog is armed). */
const char *apic_timer_periodic(uint32_t us, uint32_t vector);
void apic_timer_quiet(void);

#endif
