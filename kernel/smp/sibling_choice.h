/* Which kernels smp/sibling runs (option sibling=BODY[,ANTAGONIST], see
 * kernel/run/smp_runs.c): the menu's names and the parse of the option's
 * text. Pure logic, so the unit test (tests/unit/smp/test_sibling_choice.c)
 * runs it on the host; the kernels themselves are in sibling_kernels.c. */
#ifndef CK_SMP_SIBLING_CHOICE_H
#define CK_SMP_SIBLING_CHOICE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The menu, in the order `all` runs the antagonists (README.md). */
enum sibling_kernel_id {
    SIBK_ADD, SIBK_IMUL, SIBK_LOAD, SIBK_STORE, SIBK_X87, SIBK_SSE2, SIBK_PAUSE, SIBK_NONE,
    SIBK_COUNT
};

#define SIBLING_DEFAULT "add,add"
/* The names for the warn note: "add, imul, ..., none". */
#define SIBLING_NAMES "add, imul, load, store, x87, sse2, pause, none"

struct sibling_choice {
    uint8_t body;                        /* enum sibling_kernel_id, never SIBK_NONE */
    uint8_t n;                           /* antagonists, run in this order */
    uint8_t antagonist[SIBK_COUNT];
};

/* The kernel's name ("add"), or NULL for an id outside the menu. */
const char *sibling_kernel_name(unsigned id);

/* Parses "BODY", "BODY,ANTAGONIST", "all" (= add,all) or "BODY,all" (the
 * body against every antagonist in menu order). On bad text: false, *out
 * holds the default (add,add) and why[] says what was wrong, e.g.
 * "'bogus' is not a kernel". */
bool sibling_choice_parse(const char *text, struct sibling_choice *out, char *why, size_t why_size);

#endif
