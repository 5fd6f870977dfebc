/* The probe's own logic: the pre-CPUID paths (386, 486 without CPUID, with and
 * without an FPU) driven by simulated EFLAGS behaviour; the hypervisor range;
 * the extended-range sanity check; the family/model rules and the "unknown"
 * name; and the simulator's policing itself (so "no violation" means something). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "cpu/cpu_models.h"
#include "cpu_dumps/dump.h"

static struct cpu_info info;

#define VENDOR_REGS_INTEL 0x756e6547, 0x6c65746e, 0x49656e69 /* EBX, ECX, EDX */
#define VENDOR_REGS_AMD 0x68747541, 0x444d4163, 0x69746e65

static const char *model_name(enum cpu_vendor v, unsigned family, unsigned model)
{
    const struct cpu_model *m = cpu_model_lookup(v, family, model, 0, 0);
    return m ? m->name : NULL;
}

/* The model table is one row per model: name and facts (the microarchitecture
 * is kernel/uarch/'s: tests/unit/test_uarch.c). */
static void model_table_rows(void **state)
{
    (void)state;
    const struct cpu_model *m = cpu_model_lookup(VENDOR_INTEL, 6, 0x8f, 8, 0);
    assert_string_equal(m->name, "Sapphire Rapids");
    m = cpu_model_lookup(VENDOR_INTEL, 6, 0x55, 7, 0);
    assert_string_equal(m->name, "Cascade Lake");
    assert_null(cpu_model_lookup(VENDOR_INTEL, 6, 0x55, 8, 0)); /* no such stepping: no guess */
    m = cpu_model_lookup(VENDOR_INTEL, 5, 4, 3, 1);
    assert_string_equal(m->name, "Pentium MMX OverDrive (P54CTB)");
    assert_true(m->facts & CPU_TSC_CORE_CLOCK);
    m = cpu_model_lookup(VENDOR_INTEL, 5, 0xc, 0, 0); /* unnamed family-5 part */
    assert_null(m->name);
    m = cpu_model_lookup(VENDOR_INTEL, 6, 0xd, 6, 0);
    assert_true(m->facts & CPU_P6_PMU);
    assert_false(cpu_model_lookup(VENDOR_INTEL, 6, 0x0e, 0, 0)->facts & CPU_P6_PMU);
    assert_null(cpu_model_lookup(VENDOR_AMD, 0x19, 0xb5, 0, 0)); /* a Zen model without a name */
    assert_null(cpu_model_lookup(VENDOR_AMD, 0x1b, 0, 0, 0));
}

static void probe(const struct cpu_dump *d)
{
    sim_start(d);
    cpu_probe_with(&info, &sim_ops);
    if (sim.violations)
        fail_msg("%u out-of-range reads, first: %s", sim.violations, sim.first_violation);
}

/* ---- before CPUID ---- */

static void test_386_without_ac(void **state)
{
    (void)state;
    sim_start_pre_cpuid(false, true);
    cpu_probe_with(&info, &sim_ops);
    assert_int_equal(info.generation, CPU_GEN_386);
    assert_string_equal(info.name, "386-class (no CPUID)");
    assert_true(info.has_fpu); /* a 386 with a 387 */
    assert_int_equal(sim.reads, 0);
    assert_int_equal(sim.eflags_tests, 1); /* AC failed: ID is not even tried */
    assert_int_equal(info.nraw, 0);
    assert_int_equal(info.vendor, VENDOR_UNKNOWN);
    assert_string_equal(info.vendor_string, "");
    assert_int_equal(info.features[FW_1_EDX], 0);
    assert_false(cpu_has(&info, FEAT_TSC));
}

static void test_486_without_id(void **state)
{
    (void)state;
    sim_start_pre_cpuid(true, true);
    cpu_probe_with(&info, &sim_ops);
    assert_int_equal(info.generation, CPU_GEN_486_NO_CPUID);
    assert_string_equal(info.name, "486-class (no CPUID)");
    assert_true(info.has_fpu);
    assert_int_equal(sim.reads, 0);
    assert_int_equal(sim.eflags_tests, 2);
    assert_int_equal(sim.fpu_tests, 1);
}

static void test_486sx_without_fpu(void **state)
{
    (void)state;
    sim_start_pre_cpuid(true, false);
    cpu_probe_with(&info, &sim_ops);
    assert_int_equal(info.generation, CPU_GEN_486_NO_CPUID);
    assert_false(info.has_fpu);
    assert_false(cpu_has(&info, FEAT_FPU));
}

/* ---- the hypervisor range ---- */

static const struct dump_leaf kvm_leaves[] = {
    { 0x0, 0, 0xd, VENDOR_REGS_INTEL },
    { 0x1, 0, 0x000206a7, 0, 0x80000001, 0x00000011 }, /* hypervisor bit, sse3 */
    { 0x40000000, 0, 0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d }, /* "KVMKVMKVM" */
    { 0x40000001, 0, 0x01000089, 0, 0, 0 },
    { 0x80000000, 0, 0x80000008, 0, 0, 0 },
};
static const struct cpu_dump kvm = { "synthetic: Sandy Bridge guest under KVM", kvm_leaves, 5 };

static void test_hypervisor_vendor(void **state)
{
    (void)state;
    probe(&kvm);
    assert_true(cpu_has(&info, FEAT_HYPERVISOR));
    assert_string_equal(info.hv_vendor, "KVMKVMKVM");
    assert_string_equal(cpu_hypervisor_name(info.hv_vendor), "KVM");
    assert_int_equal(info.max_hv_leaf, 0x40000001);
    assert_non_null(cpu_raw_find(&info, 0x40000001, 0));
    assert_string_equal(info.name, "Sandy Bridge");
}

static const struct dump_leaf hv_zero_leaves[] = {
    { 0x0, 0, 0x1, VENDOR_REGS_INTEL },
    { 0x1, 0, 0x000006f1, 0, 0x80000000, 0x00000001 },
    { 0x40000000, 0, 0x00000000, 0x54474354, 0x43544743, 0x47435447 }, /* "TCGTCGTCGTCG" */
};
static const struct cpu_dump hv_zero = { "synthetic: hypervisor with max 0", hv_zero_leaves, 3 };

static void test_hypervisor_without_maximum(void **state)
{
    (void)state;
    probe(&hv_zero); /* reading 0x40000001 here would be a violation */
    assert_string_equal(info.hv_vendor, "TCGTCGTCGTCG");
    assert_string_equal(cpu_hypervisor_name(info.hv_vendor), "QEMU TCG");
    assert_null(cpu_raw_find(&info, 0x40000001, 0));
}

/* ---- family, model, names ---- */

static void signature(uint32_t eax, bool amd)
{
    static struct dump_leaf leaves[2];
    static struct cpu_dump d = { "synthetic: leaf 1 only", leaves, 2 };
    leaves[0] = (struct dump_leaf){ 0, 0, 1, 0, 0, 0 };
    if (amd) {
        leaves[0].ebx = 0x68747541, leaves[0].ecx = 0x444d4163, leaves[0].edx = 0x69746e65;
    } else {
        leaves[0].ebx = 0x756e6547, leaves[0].ecx = 0x6c65746e, leaves[0].edx = 0x49656e69;
    }
    leaves[1] = (struct dump_leaf){ 1, 0, eax, 0, 0, 1 };
    probe(&d);
}

static void test_extended_family_and_model(void **state)
{
    (void)state;
    signature(0x00a20f12, true); /* Zen 3 Vermeer: 0xF + 0xA, model 0x21 */
    assert_int_equal(info.family, 0x19);
    assert_int_equal(info.model, 0x21);
    assert_int_equal(info.stepping, 2);
    assert_string_equal(info.name, "Zen 3");

    signature(0x00000f41, false); /* Prescott: extended fields zero */
    assert_int_equal(info.family, 15);
    assert_int_equal(info.model, 4);
    assert_string_equal(info.name, "NetBurst (Prescott)");

    signature(0x000906ea, false);
    assert_int_equal(info.model, 0x9e);
    assert_string_equal(info.name, "Kaby Lake / Coffee Lake");

    signature(0x000b0671, false); /* i5-13600K */
    assert_int_equal(info.model, 0xb7);
    assert_string_equal(info.name, "Raptor Lake");

    /* The extended model is ignored below family 6 (Intel SDM). */
    signature(0x00010543, false);
    assert_int_equal(info.family, 5);
    assert_int_equal(info.model, 4);
    assert_string_equal(info.name, "Pentium MMX (P55C)");

    signature(0x00001522, false); /* type 1, model 2: OverDrive */
    assert_int_equal(info.type, 1);
    assert_string_equal(info.name, "Pentium OverDrive");

    signature(0x00000480, false); /* QEMU's "486" model */
    assert_string_equal(info.name, "i486DX4");
}

static void test_skylake_sp_steppings(void **state)
{
    (void)state;
    signature(0x00050654, false);
    assert_string_equal(info.name, "Skylake-SP");
    signature(0x00050657, false);
    assert_string_equal(info.name, "Cascade Lake");
    signature(0x0005065b, false);
    assert_string_equal(info.name, "Cooper Lake");
    signature(0x00050658, false);
    assert_string_equal(info.name, "unknown (family 6, model 85)");
}

static void test_unknown_is_said_so(void **state)
{
    (void)state;
    signature(0x000f06f0, false); /* family 6 model 0xFF: no such part (yet) */
    assert_string_equal(info.name, "unknown (family 6, model 255)");
    signature(0x00c00f00, true); /* AMD family 0xF + 0xC = 0x1B */
    assert_string_equal(info.name, "unknown (family 27, model 0)");
    signature(0x00000500, true); /* AMD family 5 model 0: K5 */
    assert_string_equal(info.name, "K5");
    signature(0x00000540, true); /* AMD family 5 model 4: never made */
    assert_string_equal(info.name, "unknown (family 5, model 4)");
}

static const struct dump_leaf odd_vendor_leaves[] = {
    { 0x0, 0, 0x1, 0x44434241, 0x4c4b4a49, 0x48474645 }, /* "ABCDEFGHIJKL" */
    { 0x1, 0, 0x00000633, 0, 0, 0x1 },
};
static const struct cpu_dump odd_vendor = { "synthetic: unknown vendor", odd_vendor_leaves, 2 };

static void test_unknown_vendor(void **state)
{
    (void)state;
    probe(&odd_vendor);
    assert_int_equal(info.vendor, VENDOR_UNKNOWN);
    assert_string_equal(info.vendor_string, "ABCDEFGHIJKL");
    assert_string_equal(info.name, "unknown (family 6, model 3)");
}

static void test_vendor_strings(void **state)
{
    (void)state;
    assert_int_equal(cpu_vendor_from_string("CyrixInstead"), VENDOR_CYRIX);
    assert_int_equal(cpu_vendor_from_string("HygonGenuine"), VENDOR_HYGON);
    assert_int_equal(cpu_vendor_from_string("  Shanghai  "), VENDOR_ZHAOXIN);
    assert_int_equal(cpu_vendor_from_string("GenuineTMx86"), VENDOR_TRANSMETA);
    assert_int_equal(cpu_vendor_from_string("Geode by NSC"), VENDOR_NSC);
    assert_int_equal(cpu_vendor_from_string("GenuineIntex"), VENDOR_UNKNOWN);
    assert_string_equal(model_name(VENDOR_CYRIX, 6, 0), "6x86MX / MII");
    assert_string_equal(model_name(VENDOR_HYGON, 0x18, 0), "Dhyana (Zen)");
    assert_null(model_name(VENDOR_CYRIX, 6, 9));
    assert_null(cpu_hypervisor_name("NotAHypervsr"));
}

/* ---- the extended range's sanity check ---- */

static const struct dump_leaf no_ext_leaves[] = {
    { 0x0, 0, 0x2, VENDOR_REGS_AMD },
    { 0x1, 0, 0x00000f48, 0, 0, 0x1 },
    { 0x80000000, 0, 0x80000000, 0, 0, 0 }, /* "max" equal to the base: nothing */
};
static const struct cpu_dump no_ext = { "synthetic: empty extended range", no_ext_leaves, 3 };

static void test_empty_extended_range(void **state)
{
    (void)state;
    probe(&no_ext);
    assert_int_equal(info.max_ext_leaf, 0);
    assert_null(cpu_raw_find(&info, 0x80000001, 0));
    assert_string_equal(info.name, "K8");
}

/* ---- leaf 2 special cases ---- */

static void test_leaf2_descriptor_0x49(void **state)
{
    (void)state;
    memset(&info, 0, sizeof info);
    info.family = 15, info.model = 6; /* Xeon MP: L3 */
    assert_int_equal(cpu_leaf2_descriptor(&info, 0x49), 1);
    assert_int_equal(info.caches[0].level, 3);
    memset(&info, 0, sizeof info);
    info.family = 6, info.model = 15; /* elsewhere: L2 */
    assert_int_equal(cpu_leaf2_descriptor(&info, 0x49), 1);
    assert_int_equal(info.caches[0].level, 2);
    assert_int_equal(info.caches[0].size, 4u << 20);
    assert_int_equal(cpu_leaf2_descriptor(&info, 0xf0), 0); /* prefetch hint */
    assert_int_equal(cpu_leaf2_descriptor(&info, 0xff), 0); /* "see leaf 4" */
    assert_int_equal(cpu_leaf2_descriptor(&info, 0x70), 0); /* trace cache: uops */
    assert_int_equal(cpu_leaf2_descriptor(&info, 0xc3), 2); /* two structures */
}

/* ---- the simulator catches what it must ---- */

static const struct dump_leaf small_leaves[] = {
    { 0x0, 0, 0xb, VENDOR_REGS_INTEL },
    { 0x1, 0, 0x000206a7, 0, 0x00000001, 0x1 },
    { 0x4, 0, 0x1c004121, 0x01c0003f, 0x3f, 0 },
    { 0x7, 0, 0x0, 0, 0, 0 },
    { 0xb, 0, 0x1, 0x2, 0x100, 0 },
    { 0x80000000, 0, 0x80000008, 0, 0, 0 },
};
static const struct cpu_dump small = { "synthetic: policing", small_leaves, 6 };

static void test_simulator_polices_reads(void **state)
{
    (void)state;
    sim_start(&small);
    sim_cpuid(0xb, 0);
    sim_cpuid(0xb, 1); /* terminator (zeros): allowed */
    sim_cpuid(4, 1);   /* terminator: allowed */
    sim_cpuid(0x80000008, 0);
    assert_int_equal(sim.violations, 0);
    sim_cpuid(0xc, 0); /* above leaf 0 EAX */
    assert_int_equal(sim.violations, 1);
    sim_cpuid(7, 1); /* 7.0:EAX is 0 */
    sim_cpuid(4, 2); /* after the terminator */
    sim_cpuid(0xb, 2);
    sim_cpuid(0x40000000, 0); /* no hypervisor bit */
    sim_cpuid(0x80000009, 0);
    sim_cpuid(0xc0000000, 0); /* Centaur range: never asked */
    assert_int_equal(sim.violations, 7);
    assert_non_null(strstr(sim.first_violation, "standard leaf above"));
}

/* cpu_xstate_read: XGETBV only where CPUID says XSAVE and (leaf 1 read
 * again) OSXSAVE; otherwise xcr0 unknown with the reason. The supported
 * components come from leaf 0xD as identification recorded it (c->raw). */
static uint32_t xs_leaf1_ecx;
static uint64_t xs_xcr0;
static unsigned xs_xgetbv_calls;

static struct cpuid_regs xs_cpuid(uint32_t leaf, uint32_t subleaf)
{
    (void)subleaf;
    if (leaf == 1)
        return (struct cpuid_regs){ 0, 0, xs_leaf1_ecx, 0 };
    return (struct cpuid_regs){ 0, 0, 0, 0 };
}

static uint64_t xs_xgetbv(uint32_t xcr)
{
    assert_int_equal(xcr, 0);
    xs_xgetbv_calls++;
    return xs_xcr0;
}

static void test_xstate_read(void **state)
{
    (void)state;
    struct cpu_probe_ops ops = { .cpuid = xs_cpuid, .xgetbv = xs_xgetbv };
    struct cpu_info c = { .generation = CPU_GEN_CPUID, .max_leaf = 0xd, .nraw = 1 };
    c.raw[0] = (struct cpuid_leaf_raw){ .leaf = 0xd, .subleaf = 0, .r = { 0x207, 0, 0, 0 } };
    struct cpu_xstate x;
    xs_xgetbv_calls = 0;

    cpu_xstate_read(&c, &ops, &x); /* no XSAVE bit */
    assert_false(x.known);
    assert_string_equal(x.reason, "no XSAVE (CPUID.1:ECX bit 26 clear)");

    c.features[FW_1_ECX] = 1u << 26;
    xs_leaf1_ecx = 1u << 26; /* the OS has not set CR4.OSXSAVE */
    cpu_xstate_read(&c, &ops, &x);
    assert_false(x.known);
    assert_false(x.osxsave);
    assert_non_null(x.reason);
    assert_int_equal(xs_xgetbv_calls, 0);

    xs_leaf1_ecx |= 1u << 27;
    xs_xcr0 = 0x7;
    cpu_xstate_read(&c, &ops, &x);
    assert_true(x.known && x.osxsave);
    assert_int_equal(x.xcr0, 0x7);
    assert_int_equal(x.supported, 0x207);
    assert_true(cpu_xstate_avx_on(&x));

    xs_xcr0 = 0x3; /* SSE without AVX: VEX instructions raise #UD */
    cpu_xstate_read(&c, &ops, &x);
    assert_false(cpu_xstate_avx_on(&x));

    c.generation = CPU_GEN_486_NO_CPUID;
    cpu_xstate_read(&c, &ops, &x);
    assert_false(x.known);
    assert_int_equal(xs_xgetbv_calls, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_table_rows),
        cmocka_unit_test(test_386_without_ac),
        cmocka_unit_test(test_486_without_id),
        cmocka_unit_test(test_486sx_without_fpu),
        cmocka_unit_test(test_hypervisor_vendor),
        cmocka_unit_test(test_hypervisor_without_maximum),
        cmocka_unit_test(test_extended_family_and_model),
        cmocka_unit_test(test_skylake_sp_steppings),
        cmocka_unit_test(test_unknown_is_said_so),
        cmocka_unit_test(test_unknown_vendor),
        cmocka_unit_test(test_vendor_strings),
        cmocka_unit_test(test_empty_extended_range),
        cmocka_unit_test(test_leaf2_descriptor_0x49),
        cmocka_unit_test(test_simulator_polices_reads),
        cmocka_unit_test(test_xstate_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
