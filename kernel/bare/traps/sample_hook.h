/* Sampling's interrupts reach the sampler (bare/sampler) through this hook,
 * which it installs before it first arms anything: the trap room calls no
 * room above it by name. */
#ifndef CK_BARE_SAMPLE_HOOK_H
#define CK_BARE_SAMPLE_HOOK_H
#include <stdbool.h>
#include <stdint.h>

/* An interrupt on VEC_SAMPLE..VEC_IRQ7, or an NMI while fault_sample_nmi:
 * 0 when handled, else the bound in ms a loaded body overran (it is then
 * abandoned as the watchdog's fault). NULL: no sampler installed. */
extern uint32_t (*fault_sample_hook)(uint32_t vector, uint64_t ip);
extern volatile bool fault_sample_nmi;

#endif
