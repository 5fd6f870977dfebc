/* A benchmark file, checked field by field (module_check.c). The view
 * points into the caller's bytes for the code; the strings are copied. */
#ifndef CK_MODULE_H
#define CK_MODULE_H
#include <stddef.h>
#include <stdint.h>
#include "harness/bench.h"
#include "module_format.h"

struct module_view {
    unsigned version, mode;                  /* mode: 32 or 64 */
    char name[MODULE_NAME_MAX + 1];
    char desc[MODULE_DESC_MAX + 1];
    int needs[BENCH_NEEDS_MAX];              /* enum cpu_feature; FEAT_NONE ends */
    struct bench_expect expect[BENCH_EXPECT_MAX]; /* a NULL uarch ends */
    const uint8_t *init, *body;
    uint32_t init_len, body_len;
    uint32_t unroll, loops, samples;         /* 0: the harness's default */
    uint32_t copies;                         /* copies of one instruction in the body (0: not said) */
};

/* Checks every field of the len bytes at data (lengths, the CRC, the mode,
 * the limits of module_format.h, the name's charset, known feature and
 * microarchitecture names). Returns NULL and fills *m, or the reason the
 * file is rejected (written into why, one sentence naming the field). */
const char *module_check(const uint8_t *data, size_t len, struct module_view *m, char *why,
                         size_t size);

#endif
