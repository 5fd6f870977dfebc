/* Driver choice and binding from hand-made cpu_info values that match
 * recorded CPUs (family/model/feature bits as CPUID reports them; perfmon
 * leaf 0AH values from InstLatX64 dumps and the SDM's per-family tables). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "pmu/pmu.h"
#include "support/msr_sim.h"

static void set_feature(struct cpu_info *c, enum cpu_feature f)
{
    c->features[cpu_feature_word(f)] |= 1u << cpu_feature_bit(f);
}

static struct cpu_info base(enum cpu_vendor v, unsigned family, unsigned model)
{
    struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_CPUID;
    c.vendor = v;
    c.family = family;
    c.model = model;
    set_feature(&c, FEAT_TSC);
    set_feature(&c, FEAT_MSR);
    return c;
}

static void add_raw(struct cpu_info *c, uint32_t leaf, uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx)
{
    c->raw[c->nraw].leaf = leaf;
    c->raw[c->nraw].subleaf = 0;
    c->raw[c->nraw].r = (struct cpuid_regs){ eax, ebx, ecx, edx };
    c->nraw++;
}

/* Pentium 75-200 (P54C): family 5 model 2, no MMX. */
static struct cpu_info p54c(void) { return base(VENDOR_INTEL, 5, 2); }
/* Pentium MMX (P55C): family 5 model 4, MMX. */
static struct cpu_info p55c(void)
{
    struct cpu_info c = base(VENDOR_INTEL, 5, 4);
    set_feature(&c, FEAT_MMX);
    return c;
}
/* Pentium II (Klamath/Deschutes): family 6 model 5, no leaf 0AH. */
static struct cpu_info pentium2(void)
{
    struct cpu_info c = base(VENDOR_INTEL, 6, 5);
    set_feature(&c, FEAT_MMX);
    return c;
}
/* Core 2 (Merom/Conroe): family 6 model 0Fh, perfmon v2, 2 x 40-bit + 3 x 40-bit fixed. */
static struct cpu_info core2(void)
{
    struct cpu_info c = base(VENDOR_INTEL, 6, 0xF);
    c.perfmon.version = 2;
    c.perfmon.gp_counters = 2;
    c.perfmon.gp_width = 40;
    c.perfmon.fixed_counters = 3;
    c.perfmon.fixed_width = 40;
    set_feature(&c, FEAT_PDCM);
    return c;
}
/* Skylake client: family 6 model 5Eh, perfmon v4, 4 x 48-bit (8 without
 * HT), 3 fixed x 48-bit. */
static struct cpu_info skylake(void)
{
    struct cpu_info c = base(VENDOR_INTEL, 6, 0x5E);
    c.perfmon.version = 4;
    c.perfmon.gp_counters = 4;
    c.perfmon.gp_width = 48;
    c.perfmon.fixed_counters = 3;
    c.perfmon.fixed_width = 48;
    set_feature(&c, FEAT_PDCM);
    add_raw(&c, 0xA, 0x07300404, 0, 0, 0x00000603);
    return c;
}
/* Sapphire Rapids: family 6 model 8Fh, perfmon v5, 8 x 48-bit, 4 fixed
 * (ECX bitmap 0xF), EBX vector length 8. */
static struct cpu_info sapphire_rapids(void)
{
    struct cpu_info c = base(VENDOR_INTEL, 6, 0x8F);
    c.perfmon.version = 5;
    c.perfmon.gp_counters = 8;
    c.perfmon.gp_width = 48;
    c.perfmon.fixed_counters = 4;
    c.perfmon.fixed_width = 48;
    set_feature(&c, FEAT_PDCM);
    add_raw(&c, 0xA, 0x08300805, 0, 0xF, 0x00008604);
    return c;
}
/* Athlon (K7): AMD family 6. */
static struct cpu_info athlon(void) { return base(VENDOR_AMD, 6, 2); }
/* Zen 2 (Matisse/Rome): family 17h model 71h, PerfCtrExtCore. */
static struct cpu_info zen2(void)
{
    struct cpu_info c = base(VENDOR_AMD, 0x17, 0x71);
    set_feature(&c, FEAT_PERFCTR_CORE);
    return c;
}
/* Cyrix 6x86MX: family 6 model 0, vendor Cyrix. */
static struct cpu_info cyrix(void) { return base(VENDOR_CYRIX, 6, 0); }

static void assert_choice(struct cpu_info c, enum pmu_kind want)
{
    const char *why = NULL;
    assert_int_equal(pmu_select(&c, &why), want);
    assert_non_null(why);
    assert_true(strlen(why) > 0);
}

static void test_choice_recorded_cpus(void **state)
{
    (void)state;
    assert_choice(p54c(), PMU_P5);
    assert_choice(p55c(), PMU_P5);
    assert_choice(pentium2(), PMU_P6);
    assert_choice(core2(), PMU_ARCH);
    assert_choice(skylake(), PMU_ARCH);
    assert_choice(sapphire_rapids(), PMU_ARCH);
    assert_choice(athlon(), PMU_AMD);
    assert_choice(zen2(), PMU_AMD);
    assert_choice(cyrix(), PMU_NONE);
}

static void test_choice_edges(void **state)
{
    (void)state;
    /* NetBurst without leaf 0AH: no driver. */
    assert_choice(base(VENDOR_INTEL, 15, 2), PMU_NONE);
    /* A modern family-6 model whose hypervisor hides perfmon: no driver. */
    assert_choice(base(VENDOR_INTEL, 6, 0x55), PMU_NONE);
    /* Pentium M (family 6 model 0Dh) is a P6 core. */
    assert_choice(base(VENDOR_INTEL, 6, 0xD), PMU_P6);
    /* K6 (AMD family 5): no driver. */
    assert_choice(base(VENDOR_AMD, 5, 8), PMU_NONE);
    /* Hygon Dhyana (family 18h) uses the AMD counters. */
    assert_choice(base(VENDOR_HYGON, 0x18, 0), PMU_AMD);
    /* No MSR feature: nothing, whatever the family. */
    struct cpu_info c = p55c();
    c.features[FW_1_EDX] &= ~(1u << 5);
    assert_choice(c, PMU_NONE);
    /* No CPUID at all (486). */
    c = p54c();
    c.generation = CPU_GEN_486_NO_CPUID;
    assert_choice(c, PMU_NONE);
    /* why may be NULL. */
    c = athlon();
    assert_int_equal(pmu_select(&c, NULL), PMU_AMD);
}

static void test_bind_p5(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = p54c();
    sim_init_p5(&s, false);
    assert_int_equal(pmu_bind(&d, PMU_P5, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "p5");
    assert_int_equal(d.gp_counters, 2);
    assert_int_equal(d.gp_width, 40);
    assert_int_equal(d.fixed_counters, 0);
    assert_false(d.has_rdpmc); /* RDPMC arrived with the P55C */
    assert_int_equal(d.nevents, pmu_events_p5_base_count);
    uint32_t ecx;
    assert_false(pmu_rdpmc_index(&d, 0, &ecx));

    c = p55c();
    assert_int_equal(pmu_bind(&d, PMU_P5, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "p5-mmx");
    assert_true(d.has_rdpmc);
    assert_int_equal(d.nevents, pmu_events_p5_count);
    assert_true(pmu_rdpmc_index(&d, 1, &ecx));
    assert_int_equal(ecx, 1);
    assert_false(pmu_rdpmc_index(&d, 2, &ecx));
    /* Proof events: 16h instructions on CTR1, 30h cycles (clock mode) on CTR0. */
    assert_int_equal(d.proof[PMU_PROOF_INSN].counter, 1);
    assert_int_equal(d.proof[PMU_PROOF_INSN].sel.code, 0x16);
    assert_int_equal(d.proof[PMU_PROOF_CYCLES].counter, 0);
    assert_int_equal(d.proof[PMU_PROOF_CYCLES].sel.code, 0x30);
    assert_true(d.proof[PMU_PROOF_CYCLES].sel.flags & PMU_DURATION);
    assert_string_equal(d.proof[PMU_PROOF_CYCLES].sel.name, "CYCLES_NOT_IN_HALT");
}

static void test_bind_p6(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = pentium2();
    sim_init_p6(&s);
    assert_int_equal(pmu_bind(&d, pmu_select(&c, NULL), &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "p6");
    assert_int_equal(d.gp_counters, 2);
    assert_int_equal(d.gp_width, 40);
    assert_int_equal(d.proof[PMU_PROOF_INSN].sel.code, 0xC0);
    assert_string_equal(d.proof[PMU_PROOF_INSN].sel.name, "INST_RETIRED");
    assert_int_equal(d.proof[PMU_PROOF_CYCLES].sel.code, 0x79);
    assert_false(d.proof[PMU_PROOF_BRANCH].used);
}

static void test_bind_arch_versions(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    uint32_t ecx;

    struct cpu_info c = core2();
    sim_init_arch(&s, 2, 2, 40, 3, 40);
    s.has_caps = true; /* FW_WRITE clear on Core 2 */
    assert_int_equal(pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "intel-arch-v2");
    assert_int_equal(d.gp_counters, 2);
    assert_int_equal(d.gp_width, 40);
    assert_int_equal(d.fixed_counters, 3);
    assert_int_equal(d.fixed_mask, 0x7);
    assert_false(d.full_width_write);
    /* No raw leaf: the original seven events; bit 7+ unavailable. */
    assert_int_equal(d.unavailable, 0xFFFFFF80u);
    assert_true(pmu_rdpmc_index(&d, PMU_FIXED(2), &ecx));
    assert_int_equal(ecx, 0x40000002u);
    assert_false(pmu_counter_valid(&d, PMU_FIXED(3)));
    assert_false(pmu_counter_valid(&d, 2));

    c = skylake();
    sim_init_arch(&s, 4, 4, 48, 3, 48);
    s.has_caps = true;
    s.full_width = true;
    assert_int_equal(pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "intel-arch-v4");
    assert_int_equal(d.gp_counters, 4);
    assert_int_equal(d.gp_width, 48);
    assert_int_equal(d.fixed_counters, 3);
    assert_true(d.full_width_write);
    assert_int_equal(d.unavailable, 0xFFFFFF80u); /* EAX[31:24] = 7 */
    assert_int_equal(d.proof[PMU_PROOF_BRANCH].counter, 2);
    assert_int_equal(d.proof[PMU_PROOF_FIXED_INSN].counter, PMU_FIXED(0));

    c = sapphire_rapids();
    sim_init_arch(&s, 5, 8, 48, 4, 48);
    assert_int_equal(pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "intel-arch-v5");
    assert_int_equal(d.gp_counters, 8);
    assert_int_equal(d.fixed_counters, 4);
    assert_int_equal(d.fixed_mask, 0xF);
    assert_int_equal(d.unavailable, 0xFFFFFF00u); /* 8 events enumerated: topdown slots exists */
    assert_non_null(pmu_event_find(&d, "topdown.slots_p"));
    assert_non_null(pmu_event_find(&d, "TOPDOWN.SLOTS"));
    /* No PDCM: IA32_PERF_CAPABILITIES is not read. */
    c.features[FW_1_ECX] &= ~(1u << 15);
    unsigned reads = s.reads;
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    assert_int_equal(s.reads, reads);
    assert_false(d.full_width_write);

    /* Version 1 (Core Duo): no fixed counters, no global control. */
    c = base(VENDOR_INTEL, 6, 0xE);
    c.perfmon.version = 1;
    c.perfmon.gp_counters = 2;
    c.perfmon.gp_width = 40;
    c.perfmon.fixed_counters = 3; /* ignored before version 2 */
    assert_int_equal(pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "intel-arch-v1");
    assert_int_equal(d.fixed_counters, 0);
    assert_false(d.proof[PMU_PROOF_FIXED_INSN].used);

    /* Unavailable instructions event: no proof on it. */
    c = core2();
    c.perfmon.unavailable_events = 0x2;
    pmu_bind(&d, PMU_ARCH, &c, sim_ops(&s));
    assert_false(d.proof[PMU_PROOF_INSN].used);
    assert_null(pmu_event_find(&d, "INST_RETIRED.ANY_P"));
}

static void test_bind_amd(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = athlon();
    sim_init_amd(&s, false);
    assert_int_equal(pmu_bind(&d, PMU_AMD, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "amd-k7");
    assert_int_equal(d.gp_counters, 4);
    assert_int_equal(d.gp_width, 48);
    assert_false(d.core_ext);

    c = zen2();
    assert_int_equal(pmu_bind(&d, PMU_AMD, &c, sim_ops(&s)), 0);
    assert_string_equal(d.name, "amd-core");
    assert_int_equal(d.gp_counters, 6);
    assert_true(d.core_ext);

    /* PerfCtrExtCore on a family before 15h is not used. */
    c = base(VENDOR_AMD, 0x10, 2);
    set_feature(&c, FEAT_PERFCTR_CORE);
    pmu_bind(&d, PMU_AMD, &c, sim_ops(&s));
    assert_false(d.core_ext);
    assert_int_equal(d.gp_counters, 4);

    /* Zen 4 with PerfMonV2 (8000_0022 EAX bit 0, EBX[3:0] = 6). */
    c = base(VENDOR_AMD, 0x19, 0x61);
    set_feature(&c, FEAT_PERFCTR_CORE);
    c.max_ext_leaf = 0x80000028;
    add_raw(&c, 0x80000022, 0x7, 0x6, 0, 0);
    pmu_bind(&d, PMU_AMD, &c, sim_ops(&s));
    assert_int_equal(d.version, 2);
    assert_string_equal(d.name, "amd-perfmon-v2");
    assert_int_equal(d.gp_counters, 6);
}

static void test_bind_none(void **state)
{
    (void)state;
    struct msr_sim s;
    struct pmu_driver d;
    struct cpu_info c = cyrix();
    sim_init_p5(&s, false);
    assert_int_equal(pmu_bind(&d, PMU_NONE, &c, sim_ops(&s)), PMU_ERR_KIND);
    assert_int_equal(d.kind, PMU_NONE);
    assert_false(pmu_counter_valid(&d, 0));
    assert_int_equal(pmu_save(&d), PMU_ERR_KIND);
    assert_string_equal(pmu_kind_name(PMU_NONE), "none");
    assert_string_equal(pmu_kind_name(PMU_ARCH), "intel-arch");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choice_recorded_cpus),
        cmocka_unit_test(test_choice_edges),
        cmocka_unit_test(test_bind_p5),
        cmocka_unit_test(test_bind_p6),
        cmocka_unit_test(test_bind_arch_versions),
        cmocka_unit_test(test_bind_amd),
        cmocka_unit_test(test_bind_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
