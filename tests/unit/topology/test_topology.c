/* The CPUID topology (kernel/cpu/topology/) on the recorded dumps of
 * tests/unit/cpu_dumps/: which leaves give the split, its widths, the
 * cache sharing, and APIC IDs placed in it. Expected values follow from the
 * dumps' own registers (each commented) and the parts' published core and
 * thread counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu/topology/topology_map.h"
#include "../cpu_dumps/dump.h"
#include "../cpu_dumps/intel_p54c_525.h"
#include "../cpu_dumps/intel_p4_northwood_f29.h"
#include "../cpu_dumps/intel_conroe_6f6.h"
#include "../cpu_dumps/intel_skylake_506e3.h"
#include "../cpu_dumps/intel_sapphire_rapids_806f8.h"
#include "../cpu_dumps/amd_zen2_matisse_870f10.h"

static struct cpu_info info;
static struct cpu_topology t;

static const struct cpu_topology *decode(const struct cpu_dump *d)
{
    sim_start(d);
    cpu_probe_with(&info, &sim_ops);
    assert_int_equal(sim.violations, 0);
    cpu_topology_decode(&info, &t);
    return &t;
}

static const struct topo_cache *cache(unsigned level, char type)
{
    for (unsigned i = 0; i < t.ncaches; i++)
        if (t.caches[i].level == level && t.caches[i].type == type)
            return &t.caches[i];
    fail_msg("no L%u%c", level, type);
    return NULL;
}

/* i5-6400T: 4 cores, no SMT. 0xB.0: EAX 1 (SMT shift), 0xB.1: EAX 4. */
static void skylake(void **state)
{
    (void)state;
    decode(&dump_intel_skylake_506e3);
    assert_string_equal(t.source, "CPUID 0xB");
    assert_int_equal(t.smt_bits, 1);
    assert_int_equal(t.package_bits, 4);
    assert_int_equal(cache(1, 'd')->sharing, 2);   /* 0x1c004121: EAX[25:14] = 1 */
    assert_int_equal(cache(1, 'd')->share_bits, 1);
    assert_int_equal(cache(3, 'u')->sharing, 16);  /* 0x1c03c163: EAX[25:14] = 15 */
    assert_int_equal(cache(3, 'u')->share_bits, 4);
    assert_false(t.hybrid);
    /* The four cores' APIC IDs (0, 2, 4, 6): one package, four cores. */
    static struct topology_map m;
    const uint32_t ids[] = { 0, 2, 4, 6 };
    topology_map_build(&t, ids, 4, "test", &m);
    assert_int_equal(m.packages, 1);
    assert_int_equal(m.cores, 4);
    assert_int_equal(m.cpus[3].core, 3);
    assert_int_equal(m.cpus[3].thread, 0);
    /* L1d: each core its own; L3: all four together. */
    assert_true(m.group[0][0] != m.group[0][1]);
    unsigned l3 = (unsigned)(cache(3, 'u') - t.caches);
    assert_true(m.group[l3][0] == m.group[l3][3]);
}

/* Sapphire Rapids: leaf 0x1F preferred (0x1F.0 EAX 1, 0x1F.1 EAX 7). */
static void sapphire_rapids(void **state)
{
    (void)state;
    decode(&dump_intel_sapphire_rapids_806f8);
    assert_string_equal(t.source, "CPUID 0x1F");
    assert_int_equal(t.smt_bits, 1);
    assert_int_equal(t.package_bits, 7);
    assert_int_equal(cache(3, 'u')->sharing, 128); /* 0xfc1fc163: EAX[25:14] = 127 */
    assert_false(t.hybrid);                        /* 7.0:EDX 0xffdd4430, bit 15 clear */
    static struct topology_map m;
    const uint32_t ids[] = { 0, 1, 2, 3, 128, 129 };
    topology_map_build(&t, ids, 6, "test", &m);
    assert_int_equal(m.packages, 2);
    assert_int_equal(m.cores, 3);
    assert_int_equal(m.cpus[5].package, 1);
    assert_int_equal(m.cpus[5].thread, 1);
}

/* Ryzen (Matisse, 12 cores): 0xB is there too (AMD APM: Fn0000_000B). */
static void zen2(void **state)
{
    (void)state;
    decode(&dump_amd_zen2_matisse_870f10);
    assert_string_equal(t.source, "CPUID 0xB");
    assert_int_equal(t.smt_bits, 1);
    assert_int_equal(t.package_bits, 7);
    /* Caches from Fn8000_001D (leaf 4 reads as zeros on AMD). L3:
     * 0x00014163, EAX[25:14] = 5: six threads, one CCX of three cores. */
    assert_int_equal(cache(3, 'u')->sharing, 6);
    assert_int_equal(cache(3, 'u')->share_bits, 3);
    assert_int_equal(cache(2, 'u')->sharing, 2);
}

/* The same Zen 2 without leaf 0xB: Fn8000_0008 ECX 0x7017 (ApicIdSize 7)
 * and Fn8000_001E EBX 0x100 (two threads per core). */
static void zen2_amd_leaves(void **state)
{
    (void)state;
    static struct dump_leaf leaves[128];
    unsigned n = 0;
    for (unsigned i = 0; i < dump_amd_zen2_matisse_870f10.n; i++)
        if (dump_amd_zen2_matisse_870f10.leaves[i].leaf != 0xb)
            leaves[n++] = dump_amd_zen2_matisse_870f10.leaves[i];
    leaves[0].eax = 0xa; /* leaf 0: the highest standard leaf below 0xB */
    const struct cpu_dump d = { "synthetic: Matisse without leaf 0xB", leaves, n };
    decode(&d);
    assert_string_equal(t.source, "CPUID 0x80000008/0x8000001E");
    assert_int_equal(t.smt_bits, 1);
    assert_int_equal(t.package_bits, 7);
}

/* Core 2 Duo: no leaf 0xB; leaf 1 EBX[23:16] = 2 logical, leaf 4
 * EAX[31:26] = 1: two cores, no SMT. */
static void conroe_legacy(void **state)
{
    (void)state;
    decode(&dump_intel_conroe_6f6);
    assert_string_equal(t.source, "CPUID 1/4");
    assert_int_equal(t.package_bits, 1);
    assert_int_equal(t.smt_bits, 0);
    assert_int_equal(cache(2, 'u')->sharing, 2);
}

/* Pentium 4 with Hyper-Threading: 2 logical, no leaf 4: one core, two threads. */
static void northwood_ht(void **state)
{
    (void)state;
    decode(&dump_intel_p4_northwood_f29);
    assert_string_equal(t.source, "CPUID 1/4");
    assert_int_equal(t.package_bits, 1);
    assert_int_equal(t.smt_bits, 1);
}

/* A Pentium: no topology leaf, no HTT; the reason says so. */
static void pentium(void **state)
{
    (void)state;
    decode(&dump_intel_p54c_525);
    assert_null(t.source);
    assert_string_equal(t.why_unknown,
                        "no topology leaf (0x1F, 0xB, 0x8000001E/0x80000008) and no HTT: one thread per package");
    sim_start_pre_cpuid(true, true);
    cpu_probe_with(&info, &sim_ops);
    cpu_topology_decode(&info, &t);
    assert_string_equal(t.why_unknown, "no CPUID instruction");
}

/* A hybrid part (synthetic: Sapphire Rapids with 7.0:EDX[15] set and leaf
 * 0x1A saying Core, 0x40): the boot processor's core type. */
static void hybrid(void **state)
{
    (void)state;
    static struct dump_leaf leaves[128];
    const struct cpu_dump *spr = &dump_intel_sapphire_rapids_806f8;
    for (unsigned i = 0; i < spr->n; i++) {
        leaves[i] = spr->leaves[i];
        if (leaves[i].leaf == 7 && leaves[i].subleaf == 0)
            leaves[i].edx |= 1u << 15;
        if (leaves[i].leaf == 0x1a)
            leaves[i].eax = 0x40000001;
    }
    const struct cpu_dump d = { "synthetic: hybrid", leaves, spr->n };
    decode(&d);
    assert_true(t.hybrid);
    assert_int_equal(t.core_type, 0x40);
    static struct topology_map m;
    const uint32_t ids[] = { 0, 8 };
    t.apic_id = 8;
    topology_map_build(&t, ids, 2, "test", &m);
    assert_null(m.cpus[0].core_type);           /* not known until it runs CPUID itself */
    assert_string_equal(m.cpus[1].core_type, "core");
    assert_string_equal(cpu_core_type_name(0x20), "atom");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skylake),
        cmocka_unit_test(sapphire_rapids),
        cmocka_unit_test(zen2),
        cmocka_unit_test(zen2_amd_leaves),
        cmocka_unit_test(conroe_legacy),
        cmocka_unit_test(northwood_ht),
        cmocka_unit_test(pentium),
        cmocka_unit_test(hybrid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
