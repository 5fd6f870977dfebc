/* Microarchitectures: their names, and which one a CPU is (a column of the
 * model table, cpu_models.c). */
#include "cpu_models.h"
#include "uarch.h"

const char *uarch_name(enum uarch u)
{
    static const char *const names[UARCH_COUNT] = {
        "none", "486", "P5", "P6", "Golden Cove", "Zen",
    };
    return u < UARCH_COUNT ? names[u] : "none";
}

enum uarch uarch_of(const struct cpu_info *c)
{
    /* A 486 without CPUID: the pre-CPUID probe names it; no vendor string. */
    if (c->generation == CPU_GEN_486_NO_CPUID)
        return UARCH_486;
    const struct cpu_model *m = cpu_model_of(c);
    return m ? m->uarch : UARCH_NONE;
}
