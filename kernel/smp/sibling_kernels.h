/* The menu of smp/sibling's kernels (names in sibling_choice.h): each is
 * self-contained (no harness: the harness has one timing page and one
 * benchmark stack, so it cannot run on two processors at once) and runs
 * `rounds` loop rounds of SIBLING_OPS_PER_ROUND operations of its kind, on
 * a small buffer of the processor's own where it touches memory. The same
 * function is the timed body (TSC around it) and, called in chunks until a
 * stop flag, the antagonist. */
#ifndef CK_SMP_SIBLING_KERNELS_H
#define CK_SMP_SIBLING_KERNELS_H
#include <stdint.h>
#include "cpu/cpu.h"
#include "sibling_choice.h"

#define SIBLING_OPS_PER_ROUND 4
#define SIBLING_BUF_BYTES 4096u  /* a quarter of the smallest L1D this suite meets (Pentium: 8 KiB) */

struct sibling_kernel {
    void (*run)(uint32_t rounds, uint8_t *buf); /* NULL: none (the sibling stays in its mailbox) */
    int needs;                                  /* enum cpu_feature, FEAT_NONE: every processor */
    const char *needs_name;                     /* its name for a skip reason */
    const char *loads;                          /* the resource it loads, for README and the line */
};

extern const struct sibling_kernel sibling_kernels[SIBK_COUNT];

#endif
