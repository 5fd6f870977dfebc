/* Throughput per instruction: a body of N independent copies of one
 * instruction (struct bench's .per_body, or a benchmark file's count) costs
 * N issues, and uops.info's convention is the reciprocal throughput of one
 * instruction: the cost per body divided by N (https://uops.info/background.html,
 * "Throughput"). */
#ifndef CK_PER_INSN_H
#define CK_PER_INSN_H
#include <stdbool.h>
#include <stdint.h>
#include "result.h"

struct per_instruction {
    uint32_t n;              /* copies of the instruction in one body */
    bool have_cycles;
    int64_t cycles_x100;     /* the result's cycles / n, x100 */
    int64_t ticks_x100;      /* the result's ticks / n, x100 */
};

/* x100 / n to the nearest hundredth, halves away from zero (n > 0): the
 * rounding a reader can redo from the two-decimal value per body. */
int64_t per_insn_divide(int64_t x100, uint32_t n);

/* False when r's benchmark is not N copies of one instruction (per_body 0). */
bool per_instruction_of(const struct result *r, struct per_instruction *out);

#endif
