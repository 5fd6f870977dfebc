/* One benchmark as the suite measures it (bench_run.c). */
#ifndef CK_BENCH_RUN_H
#define CK_BENCH_RUN_H
#include <stddef.h>
#include "harness/bench.h"
#include "platform/fault.h"
#include "platform/platform.h"

/* The registers and scratch page a benchmark starts with (its .prepare may
 * change them), and the large memory when b is .big (b NULL: none). */
void bench_context(const struct platform *p, const struct bench *b, struct bench_ctx *ctx);

/* Why b cannot run on this platform (bench_unmet; a loaded file's 64-bit
 * body: the platform's reason), NULL when it can. */
const char *bench_unmet_here(const struct platform *p, const struct bench *b, char *buf, size_t size);

/* b measured on every processor on= names: a result, a skip or a fault
 * record each. With seen != NULL a fault is expected (the self-test):
 * handed back in *seen without an error note. Returns the worst status. */
int bench_run(const struct platform *p, const struct bench *b, struct fault_info *seen);

#endif
