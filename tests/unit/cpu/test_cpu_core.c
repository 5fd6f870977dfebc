/* The core named by its features (kernel/cpu/cpu_core.c, issue 29 item 12):
 * decoded CPUID leaves of real and made-up CPUs, and what the cpu record's
 * name, its "named by", the uncertainty and LLVM's model say of each. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "../cpu_dumps/dump.h"
#include "../cpu_dumps/intel_kvm_a7_amx.h"
#include "../cpu_dumps/intel_sapphire_rapids_806f8.h"
#include "../cpu_dumps/amd_zen5_turin_like_b00f21.h"
#include "cpu/cpu_core.h"
#include "uarch/llvm_model.h"
#include "uarch/uarch.h"

static struct cpu_info info;

static const struct cpu_info *probe(const struct cpu_dump *d)
{
    sim_start(d);
    cpu_probe_with(&info, &sim_ops);
    assert_int_equal(sim.violations, 0);
    return &info;
}

/* A made-up CPU: a real dump's leaves, some changed by the test. */
static struct dump_leaf leaves[128];

static struct cpu_dump made_up(const struct cpu_dump *base, const char *what)
{
    assert_true(base->n <= sizeof leaves / sizeof leaves[0]);
    memcpy(leaves, base->leaves, base->n * sizeof base->leaves[0]);
    return (struct cpu_dump){ what, leaves, base->n };
}

static struct dump_leaf *leaf(uint32_t l, uint32_t subleaf)
{
    for (unsigned i = 0; i < sizeof leaves / sizeof leaves[0]; i++)
        if (leaves[i].leaf == l && leaves[i].subleaf == subleaf)
            return &leaves[i];
    fail_msg("the base dump has no leaf 0x%x.%u", l, subleaf);
    return NULL;
}

/* What the kernel says of c: its name, how it was named, the reason (must
 * hold `because`, never the masked model's name), and LLVM's model. */
static void assert_core(const struct cpu_info *c, const char *name, enum cpu_named_by by,
                        const char *because, const char *llvm)
{
    char why[240];
    assert_string_equal(c->name, name);
    if (c->named_by != by)
        fail_msg("%s: named by %s, not %s", name, cpu_named_by_name(c->named_by),
                 cpu_named_by_name(by));
    cpu_core_why(c, why, sizeof why);
    if (because && !strstr(why, because))
        fail_msg("%s: the reason \"%s\" lacks \"%s\"", name, why, because);
    assert_null(strstr(why, "Rocket Lake"));
    bool uncertain = uarch_identity_uncertain(c, why, sizeof why);
    assert_int_equal(uncertain, by == CPU_NAMED_UNDECIDED);
    const struct uarch *u = uarch_llvm_of(c);
    if (llvm)
        assert_string_equal(uarch_name(u), llvm);
    else
        assert_null(u);
    const char *want = cpu_core_llvm(c);
    if (llvm)
        assert_string_equal(want, llvm);
}

/* The CEO's host as the issue gives it: KVM says family 6 model 0xA7, and
 * the core has PREFETCHI, AMX-FP16, AMX and AVX512-FP16: Granite Rapids,
 * whose LLVM 16 CPU is graniterapids. No file's cited values by model number. */
static void a_granite_rapids_guest_saying_model_a7(void **state)
{
    (void)state;
    struct cpu_dump d = made_up(&dump_intel_kvm_a7_amx, "synthetic: the KVM 0xA7 guest with AMX-FP16");
    leaf(7, 1)->eax |= 1u << 21; /* AMX-FP16 */
    const struct cpu_info *c = probe(&d);
    assert_int_equal(c->model, 0xa7);
    assert_true(cpu_core_traits(c) & CT_PREFETCHI);
    assert_true(cpu_core_traits(c) & CT_AMXFP16);
    assert_core(c, "Granite Rapids (Redwood Cove)", CPU_NAMED_BY_FEATURES,
                "names a core without AVX512-FP16, AMX-TILE", "graniterapids");
    char why[240];
    cpu_core_why(c, why, sizeof why);
    assert_non_null(strstr(why, "PREFETCHI"));
    assert_non_null(strstr(why, "those of Granite Rapids alone"));
    assert_false(cpu_core_named(c)->nearest);
    struct uarch_match m;
    uarch_match(c, &m);
    assert_false(m.uncertain);
    assert_int_equal(m.n, 1); /* LLVM's graniterapids alone */
    const struct uarch *from = NULL;
    assert_non_null(uarch_expect_for(&m, "lat/add", &from));
    assert_string_equal(from->name, "graniterapids");
}

/* The dump as KVM really gave it: PREFETCHI and AVX10 without AMX-FP16. */
static void the_recorded_kvm_guest_is_granite_rapids_too(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_kvm_a7_amx);
    assert_false(cpu_core_traits(c) & CT_AMXFP16);
    assert_core(c, "Granite Rapids (Redwood Cove)", CPU_NAMED_BY_FEATURES, "PREFETCHI",
                "graniterapids");
}

/* A real Sapphire Rapids (806F8, model 0x8F): AMX without PREFETCHI or
 * AMX-FP16; the model number agrees. The same features under model 0xA7 are
 * named by them: Sapphire or Emerald Rapids, one ISA (sapphirerapids). */
static void sapphire_rapids_by_model_and_by_features(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_sapphire_rapids_806f8);
    assert_core(c, "Sapphire Rapids", CPU_NAMED_BY_MODEL, NULL, "sapphirerapids");
    struct cpu_dump d = made_up(&dump_intel_sapphire_rapids_806f8, "synthetic: SPR saying 0xA7");
    leaf(1, 0)->eax = 0x000a0671;
    c = probe(&d);
    assert_int_equal(c->model, 0xa7);
    assert_core(c, "Sapphire/Emerald Rapids (Golden Cove)", CPU_NAMED_BY_FEATURES, "AMX-TILE",
                "sapphirerapids");
}

/* A real Rocket Lake: model 0xA7, AVX-512 (VBMI2, VNNI) without AMX. The
 * KVM dump with every Sapphire-Rapids-and-later bit cleared. */
static void a_real_rocket_lake_stays_rocket_lake(void **state)
{
    (void)state;
    struct cpu_dump d = made_up(&dump_intel_kvm_a7_amx, "synthetic: a Rocket Lake 0xA0671");
    leaf(7, 0)->edx &= ~((1u << 23) | (1u << 24) | (1u << 22) | (1u << 25)); /* FP16, AMX */
    leaf(7, 1)->eax = 0;
    leaf(7, 1)->edx = 0;
    const struct cpu_info *c = probe(&d);
    assert_true(cpu_has(c, FEAT_AVX512F));
    assert_core(c, "Rocket Lake", CPU_NAMED_BY_MODEL, NULL, "rocketlake");
}

/* Model 0xA7 on a core with AVX-VNNI and no AVX-512: Alder/Raptor Lake and
 * Meteor Lake have one ISA (a guest does not see the hybrid bit): unknown,
 * both candidates named, no LLVM model, no expectation. */
static void a_contradiction_the_features_cannot_decide(void **state)
{
    (void)state;
    struct cpu_dump d = made_up(&dump_intel_kvm_a7_amx, "synthetic: an Alder Lake-like guest saying 0xA7");
    leaf(7, 0)->ebx &= ~((1u << 16) | (1u << 17) | (1u << 21) | (1u << 28) | (1u << 30) | (1u << 31));
    leaf(7, 0)->ecx &= ~((1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14));
    leaf(7, 0)->edx &= ~((1u << 23) | (1u << 24) | (1u << 22) | (1u << 25));
    leaf(7, 1)->eax = 1u << 4; /* AVX-VNNI alone */
    leaf(7, 1)->edx = 0;
    const struct cpu_info *c = probe(&d);
    assert_core(c, "unknown (Alder/Raptor Lake or Meteor Lake)", CPU_NAMED_UNDECIDED,
                "fit Alder/Raptor Lake and Meteor Lake alike", NULL);
    assert_null(cpu_core_llvm(c));
    struct uarch_match m;
    uarch_match(c, &m);
    assert_true(m.uncertain);
    const struct uarch *from = NULL;
    assert_null(uarch_expect_for(&m, "lat/add", &from));
    /* Features no core has (AMX with AVX-IFMA and Zen's... here: AMX without AVX512-FP16). */
    leaf(7, 0)->edx |= 1u << 24;
    c = probe(&d);
    assert_core(c, "unknown (no core known has these features)", CPU_NAMED_UNDECIDED,
                "no core cyclekit knows", NULL);
}

/* This dev machine: a bhyve guest, AMD family 1Ah model 02h, AVX-512 with
 * AVX512-VP2INTERSECT and AVX-VNNI: Zen 5 by its model number, which the
 * features agree with; LLVM 16 has no Zen 5 (the model table's column). Its
 * features under a Zen 4 signature (family 19h model 11h) name Zen 5, with
 * LLVM 16's nearest, znver4, said so. */
static void the_zen5_of_this_machine(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_amd_zen5_turin_like_b00f21);
    assert_int_equal(c->family, 0x1a);
    assert_core(c, "Zen 5", CPU_NAMED_BY_MODEL, NULL, NULL);
    assert_null(cpu_core_llvm(c));
    struct cpu_dump d = made_up(&dump_amd_zen5_turin_like_b00f21, "synthetic: Zen 5 saying Zen 4");
    leaf(1, 0)->eax = 0x00a10f11;
    leaf(0x80000001, 0)->eax = 0x00a10f11;
    c = probe(&d);
    assert_int_equal(c->family, 0x19);
    assert_core(c, "Zen 5", CPU_NAMED_BY_FEATURES, "without AVX512-VP2INTERSECT and AVX-VNNI",
                "znver4");
    assert_true(cpu_core_named(c)->nearest);
}

/* Every class's LLVM CPU is one llvm_cpus.c knows and LLVM 16 models, and
 * every row name a class lists is a row of the model table. */
static void every_class_names_a_modelled_llvm_cpu(void **state)
{
    (void)state;
    for (unsigned i = 0; i < cpu_core_class_count; i++) {
        const struct cpu_core_class *k = &cpu_core_classes[i];
        if (!llvm_cpu_named(k->llvm) || !llvm_model_named(k->llvm))
            fail_msg("%s: LLVM %s has no table", k->name, k->llvm);
        assert_true((k->sure & ~k->may) == 0 && (k->any & ~k->may) == 0);
        assert_non_null(k->rows[0]);
    }
    assert_true(cpu_core_class_count <= 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_granite_rapids_guest_saying_model_a7),
        cmocka_unit_test(the_recorded_kvm_guest_is_granite_rapids_too),
        cmocka_unit_test(sapphire_rapids_by_model_and_by_features),
        cmocka_unit_test(a_real_rocket_lake_stays_rocket_lake),
        cmocka_unit_test(a_contradiction_the_features_cannot_decide),
        cmocka_unit_test(the_zen5_of_this_machine),
        cmocka_unit_test(every_class_names_a_modelled_llvm_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
