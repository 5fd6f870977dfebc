/* The raw CPUID leaves as probed (or read back from a log): every decoder
 * looks its leaves up here, so a decoder never executes CPUID itself. */
#include "cpu.h"

const struct cpuid_regs *cpu_raw_find(const struct cpu_info *c, uint32_t leaf, uint32_t subleaf)
{
    for (unsigned i = 0; i < c->nraw; i++)
        if (c->raw[i].leaf == leaf && c->raw[i].subleaf == subleaf)
            return &c->raw[i].r;
    return NULL;
}
