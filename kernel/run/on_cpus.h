/* The processors a benchmark runs on (option on=, on_cpus.c). */
#ifndef CK_RUN_ON_CPUS_H
#define CK_RUN_ON_CPUS_H
#include <stdbool.h>
#include <stdint.h>

#define ON_BOOT ((unsigned)-1) /* the boot processor: runs it itself */

struct on_target {
    unsigned slot;             /* smp_info slot, or ON_BOOT */
    uint32_t apic_id;
    unsigned core_type;        /* its CPUID 0x1A EAX[31:24] (0: not hybrid, or the boot one) */
};

/* Fills t with the processors for the next benchmark (at least one). */
unsigned on_targets(struct on_target *t, unsigned max);
bool on_given(void);
/* A processor that faulted or hung: left out from now on. */
void on_abandon(unsigned slot);

#endif
