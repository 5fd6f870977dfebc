/* The benchmarks linked into this program (the ck_benches section). */
#ifndef CK_BENCH_REGISTRY_H
#define CK_BENCH_REGISTRY_H
#include <stdbool.h>
#include <stddef.h>
#include "bench.h"

const struct bench *bench_begin(void);
const struct bench *bench_end(void);
unsigned bench_count(void);
const struct bench *bench_find(const char *name);

/* Why b cannot run on this CPU / platform (NULL when it can). The text is
 * written into buf. */
const char *bench_unmet(const struct bench *b, bool ring0, char *buf, size_t size);

#endif
