/* Every benchmark's name, built-in, loaded and between cores, and the
 * nearest of them to a mistyped word: the suite and the event sweep both
 * suggest names, so the list lives apart from either. */
#ifndef CK_BENCH_NAMES_H
#define CK_BENCH_NAMES_H
#include <stddef.h>
#include "harness/bench.h"

/* Built-in benchmarks first, in their files' order, then the loaded ones
 * (kernel/load/) in the order they came: one list, listed and run alike. */
unsigned bench_all_count(void);
const struct bench *bench_all_at(unsigned i);

/* "; did you mean 'lat64/imul'?": up to 3 benchmark names nearest to a
 * word of `words` (comma-separated; globs are skipped), one edit away, else
 * two; "" when none is that near. */
void bench_nearest(const char *words, char *buf, size_t size);

#endif
