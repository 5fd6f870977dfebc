/* The processors a benchmark runs on (option on=, on_cpus.c). */
#ifndef CK_RUN_ON_CPUS_H
#define CK_RUN_ON_CPUS_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/smp.h"

#define ON_BOOT ((unsigned)-1) /* the boot processor: runs it itself */

struct on_target {
    unsigned slot;             /* smp_info slot, or ON_BOOT */
    uint32_t apic_id;
    unsigned core_type;        /* its CPUID 0x1A EAX[31:24] (0: not hybrid, or not known) */
};

/* Why on_choose chose what it did. */
struct on_choice {
    const char *bad;           /* on= could not be read: why (the boot processor alone runs); else NULL */
    bool hybrid;               /* on= not given and the running processors have more than one core
                                  type: one processor of each type runs every benchmark */
};

/* Fills t with the processors for the next benchmark (at least one). */
unsigned on_targets(struct on_target *t, unsigned max);
bool on_given(void);
/* Whether the last on_targets' results say which processor ran them (`cpu`,
 * `core_type`): on= given, or the hybrid default in effect. */
bool on_names_cpu(void);
/* A processor that faulted or hung: left out from now on. */
void on_abandon(unsigned slot);

/* on_targets' pure core (no options, no notes; a unit test drives it with
 * made-up tables): the processors of s that run the next benchmark under
 * on_opt ("" when on= is not given), bsp_type (the boot processor's own
 * CPUID 0x1A core type: its smp_info entry has none, it was never started)
 * and abandoned (indexed by slot, SMP_MAX_CPUS entries). Fills why. */
unsigned on_choose(const struct smp_info *s, const char *on_opt, unsigned bsp_type, const bool *abandoned,
                   struct on_target *t, unsigned max, struct on_choice *why);

#endif
