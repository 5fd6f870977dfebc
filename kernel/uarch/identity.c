/* Identity sanity (issue "identity sanity"): the microarchitecture is named
 * from the model number, which a hypervisor can report for any core (a KVM
 * guest on a Sapphire Rapids host has been seen saying family 6 model 0xA7,
 * Rocket Lake). When the CPU has a discriminating feature that the named
 * microarchitecture lacks, or lacks one that every part of it has, the name
 * is in doubt: the identity is marked uncertain and no table is attached by
 * name. The features are LLVM's definition of the CPU that cpu_models.c
 * maps the identity to (llvm_cpus.c). */
#include "cpu/cpu_core.h"
#include "cpu/cpu_models.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "llvm_model.h"

/* "AMX, AVX512-FP16 and AVX-VNNI" into buf. */
static void trait_list(char *buf, size_t size, unsigned traits)
{
    unsigned total = 0, seen = 0;
    for (unsigned b = 0; b < TRAIT_COUNT; b++)
        total += (traits >> b) & 1;
    buf[0] = 0;
    for (unsigned b = 0; b < TRAIT_COUNT; b++) {
        if (!((traits >> b) & 1))
            continue;
        size_t len = kstrlen(buf);
        ksnprintf(buf + len, size - len, "%s%s", seen == 0 ? "" : seen + 1 == total ? " and " : ", ",
                  llvm_trait_name(1u << b));
        seen++;
    }
}

bool uarch_identity_uncertain(const struct cpu_info *c, char *why, size_t size)
{
    /* The features named the core (cpu/cpu_core.c): certain; or could not: "unknown". */
    if (c->generation == CPU_GEN_CPUID && c->named_by != CPU_NAMED_BY_MODEL) {
        if (why && size)
            cpu_core_why(c, why, size);
        return c->named_by == CPU_NAMED_UNDECIDED;
    }
    const struct cpu_model *m = c->generation == CPU_GEN_CPUID ? cpu_model_of(c) : NULL;
    const struct llvm_cpu *l = m ? llvm_cpu_named(m->llvm) : NULL;
    if (!l)
        return false;
    unsigned has = llvm_traits_of(c);
    unsigned extra = has & ~l->traits, missing = l->traits & TRAIT_SURE & ~has;
    if (!extra && !missing)
        return false;
    if (why && size) {
        char list[96];
        int at = ksnprintf(why, size, "family 0x%x model 0x%X says %s, but the CPU ", c->family,
                           c->model, m->name);
        if (extra) {
            trait_list(list, sizeof list, extra);
            at += ksnprintf(why + at, size > (size_t)at ? size - at : 0, "has %s, which %s lacks",
                            list, m->name);
        }
        if (missing) {
            trait_list(list, sizeof list, missing);
            ksnprintf(why + at, size > (size_t)at ? size - at : 0, "%s %s, which every %s has",
                      extra ? "; and lacks" : "lacks", list, m->name);
        }
    }
    return true;
}
