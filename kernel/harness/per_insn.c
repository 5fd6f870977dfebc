/* Throughput per instruction (per_insn.h). */
#include "per_insn.h"

int64_t per_insn_divide(int64_t x100, uint32_t n)
{
    uint64_t mag = x100 < 0 ? (uint64_t)0 - (uint64_t)x100 : (uint64_t)x100;
    uint64_t q = (mag + n / 2) / n; /* n is at most 32 bits: a 64 by 32 division */
    return x100 < 0 ? -(int64_t)q : (int64_t)q;
}

bool per_instruction_of(const struct result *r, struct per_instruction *out)
{
    uint32_t n = r->b->per_body;
    if (n == 0)
        return false;
    out->n = n;
    out->ticks_x100 = per_insn_divide(r->m->value_x100, n);
    out->have_cycles = r->have_cycles;
    out->cycles_x100 = r->have_cycles ? per_insn_divide(r->cycles_x100, n) : 0;
    return true;
}
