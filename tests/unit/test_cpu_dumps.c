/* Identification of real processors from their published CPUID dumps
 * (tests/unit/cpu_dumps/, each citing its InstLatx64 file). Every probe runs
 * against the simulator, which fails the test if any leaf or subleaf beyond
 * its range's maximum is read; every result is then decoded again from the
 * raw leaves alone and must come out the same. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "cpu_dumps/dump.h"
#include "cpu_dumps/intel_p54c_525.h"
#include "cpu_dumps/intel_p55c_582.h"
#include "cpu_dumps/intel_ppro_619.h"
#include "cpu_dumps/intel_p4_northwood_f29.h"
#include "cpu_dumps/intel_conroe_6f6.h"
#include "cpu_dumps/intel_skylake_506e3.h"
#include "cpu_dumps/intel_sapphire_rapids_806f8.h"
#include "cpu_dumps/intel_kvm_a7_amx.h"
#include "cpu_dumps/amd_k6_2_580.h"
#include "cpu_dumps/amd_k7_barton_6a0.h"
#include "cpu_dumps/amd_zen2_matisse_870f10.h"
#include "cpu_dumps/via_c3_nehemiah_691.h"
#include "harness/bench.h"
#include "harness/bench_registry.h"
#include "platform/platform.h"

#define FULL 0xffff
#define KB 1024u
#define MB (1024u * 1024u)

static struct cpu_info info, again;

/* Probe with the simulator; no out-of-range read; the raw leaves decode again
 * to the same result. */
static const struct cpu_info *probe(const struct cpu_dump *d)
{
    sim_start(d);
    cpu_probe_with(&info, &sim_ops);
    if (sim.violations)
        fail_msg("%u out-of-range CPUID reads, first: %s", sim.violations, sim.first_violation);
    assert_int_equal(info.generation, CPU_GEN_CPUID);
    assert_int_equal(info.nraw, sim.reads);

    cpu_decode_raw(&again, info.raw, info.nraw);
    assert_string_equal(again.name, info.name);
    assert_string_equal(again.brand, info.brand);
    assert_memory_equal(again.features, info.features, sizeof info.features);
    assert_int_equal(again.ncaches, info.ncaches);
    assert_memory_equal(again.caches, info.caches, sizeof info.caches);
    assert_memory_equal(&again.perfmon, &info.perfmon, sizeof info.perfmon);
    assert_memory_equal(&again.clock, &info.clock, sizeof info.clock);
    return &info;
}

static void expect_cache(const struct cpu_info *c, enum cache_kind kind, unsigned level,
                         unsigned ways, uint32_t size, uint32_t line)
{
    for (unsigned i = 0; i < c->ncaches; i++) {
        const struct cache_desc *d = &c->caches[i];
        if (d->kind == kind && d->level == level && d->ways == ways && d->size == size &&
            d->line == line)
            return;
    }
    fail_msg("%s: no %s L%u %u-way size %u line %u", c->name, cpu_cache_kind_name(kind), level,
             ways, size, line);
}

static bool raw_read(const struct cpu_info *c, uint32_t leaf, uint32_t subleaf)
{
    return cpu_raw_find(c, leaf, subleaf) != NULL;
}

static void test_p54c(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_p54c_525);
    assert_int_equal(c->vendor, VENDOR_INTEL);
    assert_string_equal(c->vendor_string, "GenuineIntel");
    assert_int_equal(c->family, 5);
    assert_int_equal(c->model, 2);
    assert_int_equal(c->stepping, 5);
    assert_int_equal(c->type, 0);
    assert_string_equal(c->name, "Pentium (P54C)");
    assert_string_equal(c->brand, "");
    assert_int_equal(c->max_leaf, 1);
    /* 0x80000000 answers with leaf 1's data on a P5: no extended range. */
    assert_int_equal(c->max_ext_leaf, 0);
    assert_true(c->has_fpu);
    assert_int_equal(c->features[FW_1_EDX], 0x1bf);
    assert_true(cpu_has(c, FEAT_TSC));
    assert_true(cpu_has(c, FEAT_MSR));
    assert_true(cpu_has(c, FEAT_CX8));
    assert_false(cpu_has(c, FEAT_APIC));
    assert_false(cpu_has(c, FEAT_MMX));
    assert_false(cpu_has(c, FEAT_CMOV));
    assert_int_equal(c->ncaches, 0); /* no leaf 2 on the P5 */
    assert_int_equal(c->perfmon.version, 0);
}

static void test_p55c(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_p55c_582);
    assert_int_equal(c->vendor, VENDOR_INTEL);
    assert_int_equal(c->family, 5);
    assert_int_equal(c->model, 8);
    assert_int_equal(c->stepping, 2);
    assert_string_equal(c->name, "Pentium MMX mobile (Tillamook)");
    assert_true(cpu_has(c, FEAT_MMX));
    assert_true(cpu_has(c, FEAT_TSC));
    assert_false(cpu_has(c, FEAT_CMOV));
    assert_int_equal(c->max_ext_leaf, 0);
}

static void test_pentium_pro(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_ppro_619);
    assert_int_equal(c->family, 6);
    assert_int_equal(c->model, 1);
    assert_int_equal(c->stepping, 9);
    assert_string_equal(c->name, "Pentium Pro");
    assert_true(cpu_has(c, FEAT_CMOV));
    assert_true(cpu_has(c, FEAT_APIC));
    assert_false(cpu_has(c, FEAT_MMX));
    /* Reported by the part, but SYSENTER only exists from signature 0x633. */
    assert_false(cpu_has(c, FEAT_SEP));
    /* Leaf 2: 01 02 03 / 42 0A 04 06. */
    assert_int_equal(c->ncaches, 7);
    expect_cache(c, CACHE_TLB_INSN, 1, 4, 32, 4);
    expect_cache(c, CACHE_TLB_INSN, 1, FULL, 2, 4096);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 64, 4);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 8, 4096);
    expect_cache(c, CACHE_UNIFIED, 2, 4, 256 * KB, 32);
    expect_cache(c, CACHE_DATA, 1, 2, 8 * KB, 32);
    expect_cache(c, CACHE_INSN, 1, 4, 8 * KB, 32);
}

static void test_pentium4_northwood(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_p4_northwood_f29);
    assert_int_equal(c->family, 15);
    assert_int_equal(c->model, 2);
    assert_int_equal(c->stepping, 9);
    assert_string_equal(c->name, "NetBurst (Northwood)");
    assert_string_equal(c->brand, "Intel(R) Pentium(R) 4 CPU 2.80GHz");
    assert_int_equal(c->max_ext_leaf, 0x80000004);
    assert_true(cpu_has(c, FEAT_SSE2));
    assert_true(cpu_has(c, FEAT_HTT));
    assert_false(cpu_has(c, FEAT_SSE3));
    assert_false(cpu_has(c, FEAT_LM));
    assert_false(cpu_has(c, FEAT_INVARIANT_TSC));
    /* Leaf 2: 50 5B 66 / 40 70 7B (0x40: no L3, 0x70: trace cache). */
    assert_int_equal(c->ncaches, 4);
    expect_cache(c, CACHE_TLB_INSN, 1, 0, 64, 4);
    expect_cache(c, CACHE_TLB_DATA, 1, 0, 64, 4);
    expect_cache(c, CACHE_DATA, 1, 4, 8 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 2, 8, 512 * KB, 64);
}

static void test_core2_conroe(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_conroe_6f6);
    assert_int_equal(c->family, 6);
    assert_int_equal(c->model, 15);
    assert_int_equal(c->stepping, 6);
    assert_string_equal(c->name, "Core 2 (Merom/Conroe)");
    assert_string_equal(c->brand, "Intel(R) Core(TM)2 CPU         X6800  @ 2.93GHz");
    assert_true(cpu_has(c, FEAT_SSSE3));
    assert_true(cpu_has(c, FEAT_CX16));
    assert_true(cpu_has(c, FEAT_VMX));
    assert_true(cpu_has(c, FEAT_LM));
    assert_true(cpu_has(c, FEAT_NX));
    assert_true(cpu_has(c, FEAT_LAHF_LM));
    assert_false(cpu_has(c, FEAT_SSE4_1));
    assert_false(cpu_has(c, FEAT_RDTSCP));
    assert_false(cpu_has(c, FEAT_INVARIANT_TSC));
    /* Leaf 4 gives the caches (0x49 of leaf 2 is not counted twice). */
    expect_cache(c, CACHE_DATA, 1, 8, 32 * KB, 64);
    expect_cache(c, CACHE_INSN, 1, 8, 32 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 2, 16, 4 * MB, 64);
    /* Leaf 2 gives the TLBs: B1 B0 05 / F0 57 56 / 49 30 B4 2C. */
    expect_cache(c, CACHE_TLB_INSN, 1, 4, 8, 2048);
    expect_cache(c, CACHE_TLB_INSN, 1, 4, 128, 4);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 32, 4096);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 16, 4);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 16, 4096);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 256, 4);
    assert_int_equal(c->ncaches, 9);
    assert_true(raw_read(c, 4, 3)); /* the terminating subleaf */
    assert_false(raw_read(c, 4, 4));
    /* Leaf 0xA as reported: version 2, 2 x 40 bits, no fixed counters listed. */
    assert_int_equal(c->perfmon.version, 2);
    assert_int_equal(c->perfmon.gp_counters, 2);
    assert_int_equal(c->perfmon.gp_width, 40);
    assert_int_equal(c->perfmon.fixed_counters, 0);
    assert_int_equal(c->perfmon.unavailable_events, 0);
    assert_int_equal(c->clock.ratio_den, 0); /* max leaf 0xA: no 0x15 */
}

static void test_skylake(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_skylake_506e3);
    assert_int_equal(c->family, 6);
    assert_int_equal(c->model, 0x5e);
    assert_int_equal(c->stepping, 3);
    assert_string_equal(c->name, "Skylake");
    assert_string_equal(c->brand, "Intel(R) Core(TM) i5-6400T CPU @ 2.20GHz");
    assert_true(cpu_has(c, FEAT_AVX2));
    assert_true(cpu_has(c, FEAT_FMA));
    assert_true(cpu_has(c, FEAT_BMI2));
    assert_true(cpu_has(c, FEAT_ADX));
    assert_true(cpu_has(c, FEAT_CLFLUSHOPT));
    assert_true(cpu_has(c, FEAT_RDTSCP));
    assert_true(cpu_has(c, FEAT_INVARIANT_TSC));
    assert_false(cpu_has(c, FEAT_RTM)); /* TSX off on this part */
    assert_false(cpu_has(c, FEAT_AVX512F));
    assert_false(cpu_has(c, FEAT_HYPERVISOR));
    assert_string_equal(c->hv_vendor, "");
    expect_cache(c, CACHE_DATA, 1, 8, 32 * KB, 64);
    expect_cache(c, CACHE_INSN, 1, 8, 32 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 2, 4, 256 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 3, 12, 6 * MB, 64);
    /* Leaf 2: 63 03 76 / FF B6 F0 / C3 (FF: caches are in leaf 4). */
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 32, 2048);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 4, 1024 * 1024);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 64, 4);
    expect_cache(c, CACHE_TLB_INSN, 1, FULL, 8, 2048);
    expect_cache(c, CACHE_TLB_INSN, 1, 8, 128, 4);
    expect_cache(c, CACHE_TLB_UNIFIED, 2, 6, 1536, 4);
    expect_cache(c, CACHE_TLB_UNIFIED, 2, 4, 16, 1024 * 1024);
    assert_int_equal(c->ncaches, 11);
    assert_int_equal(c->perfmon.version, 4);
    assert_int_equal(c->perfmon.gp_counters, 8);
    assert_int_equal(c->perfmon.gp_width, 48);
    assert_int_equal(c->perfmon.fixed_counters, 3);
    assert_int_equal(c->perfmon.fixed_width, 48);
    assert_int_equal(c->clock.ratio_den, 2);
    assert_int_equal(c->clock.ratio_num, 184);
    assert_int_equal(c->clock.crystal_hz, 0);
    assert_int_equal(c->clock.base_mhz, 2200);
    assert_int_equal(c->clock.max_mhz, 2800);
    assert_int_equal(c->clock.bus_mhz, 100);
    /* Leaf 7 reports no subleaves beyond 0; leaf 0xB stops at its null level. */
    assert_true(raw_read(c, 7, 0));
    assert_false(raw_read(c, 7, 1));
    assert_true(raw_read(c, 0xb, 2));
    assert_false(raw_read(c, 0xb, 3));
}

/* This project's host: a KVM guest whose CPUID says family 6 model 0xA7
 * on a core with AMX, AVX512-FP16 and PREFETCHI. The probe names it by its
 * features, never by the model number (tests/unit/cpu/test_cpu_core.c). */
static void test_kvm_guest_saying_rocket_lake(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_kvm_a7_amx);
    assert_int_equal(c->family, 6);
    assert_int_equal(c->model, 0xa7);
    assert_string_equal(c->name, "Granite Rapids (Redwood Cove)");
    assert_true(cpu_has(c, FEAT_HYPERVISOR));
    assert_string_equal(c->hv_vendor, "KVMKVMKVM");
    assert_true(cpu_has(c, FEAT_AMX_TILE));
    assert_true(cpu_has(c, FEAT_AVX512FP16));
    assert_true(raw_read(c, 7, 1));
    assert_int_equal(cpu_raw_find(c, 7, 1)->eax & (1u << 4), 1u << 4); /* AVX-VNNI */
    assert_int_equal(c->perfmon.version, 0); /* the guest sees no PMU */
}

static void test_sapphire_rapids(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_intel_sapphire_rapids_806f8);
    assert_int_equal(c->family, 6);
    assert_int_equal(c->model, 0x8f);
    assert_int_equal(c->stepping, 8);
    assert_string_equal(c->name, "Sapphire Rapids");
    assert_string_equal(c->brand, "Intel(R) Xeon(R) w7-2475X");
    assert_int_equal(c->max_leaf, 0x20);
    assert_true(cpu_has(c, FEAT_AVX512F));
    assert_true(cpu_has(c, FEAT_AVX512BW));
    assert_true(cpu_has(c, FEAT_AVX512VNNI));
    assert_true(cpu_has(c, FEAT_AVX512FP16));
    assert_true(cpu_has(c, FEAT_AMX_TILE));
    assert_true(cpu_has(c, FEAT_SERIALIZE));
    assert_false(cpu_has(c, FEAT_HYBRID));
    assert_true(cpu_has(c, FEAT_INVARIANT_TSC));
    /* Leaf 7 has subleaves 0..2 (7.0:EAX = 2), all read, no more. */
    assert_true(raw_read(c, 7, 2));
    assert_false(raw_read(c, 7, 3));
    /* Leaf 2 is 0xFF/0xFE/0xF0 only: caches from leaf 4, TLBs in leaf 0x18. */
    expect_cache(c, CACHE_DATA, 1, 12, 48 * KB, 64);
    expect_cache(c, CACHE_INSN, 1, 8, 32 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 2, 16, 2 * MB, 64);
    expect_cache(c, CACHE_UNIFIED, 3, 15, 38400 * KB, 64);
    assert_int_equal(c->ncaches, 4);
    assert_int_equal(c->perfmon.version, 5);
    assert_int_equal(c->perfmon.gp_counters, 8);
    assert_int_equal(c->perfmon.gp_width, 48);
    assert_int_equal(c->perfmon.fixed_counters, 4);
    assert_int_equal(c->perfmon.fixed_width, 48);
    assert_int_equal(c->clock.ratio_den, 2);
    assert_int_equal(c->clock.ratio_num, 216);
    assert_int_equal(c->clock.crystal_hz, 24000000);
    assert_int_equal(c->clock.base_mhz, 2600);
    assert_int_equal(c->clock.max_mhz, 4800);
    assert_int_equal(c->clock.bus_mhz, 100);
}

static void test_amd_k6_2(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_amd_k6_2_580);
    assert_int_equal(c->vendor, VENDOR_AMD);
    assert_string_equal(c->vendor_string, "AuthenticAMD");
    assert_int_equal(c->family, 5);
    assert_int_equal(c->model, 8);
    assert_int_equal(c->stepping, 0);
    assert_string_equal(c->name, "K6-2");
    assert_string_equal(c->brand, "AMD-K6(tm) 3D processor");
    assert_int_equal(c->max_ext_leaf, 0x80000005);
    assert_true(cpu_has(c, FEAT_MMX));
    assert_true(cpu_has(c, FEAT_3DNOW));
    assert_true(cpu_has(c, FEAT_SYSCALL));
    assert_false(cpu_has(c, FEAT_3DNOWEXT));
    assert_false(cpu_has(c, FEAT_CMOV));
    expect_cache(c, CACHE_DATA, 1, 2, 32 * KB, 32);
    expect_cache(c, CACHE_INSN, 1, 2, 32 * KB, 32);
    expect_cache(c, CACHE_TLB_DATA, 1, 2, 128, 4);
    expect_cache(c, CACHE_TLB_INSN, 1, 1, 64, 4);
    assert_int_equal(c->ncaches, 4);
    assert_false(raw_read(c, 0x80000006, 0));
}

static void test_amd_k7_barton(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_amd_k7_barton_6a0);
    assert_int_equal(c->vendor, VENDOR_AMD);
    assert_int_equal(c->family, 6);
    assert_int_equal(c->model, 10);
    assert_int_equal(c->stepping, 0);
    assert_string_equal(c->name, "K7 (Barton)");
    assert_string_equal(c->brand, "AMD Athlon(tm) XP 3200+");
    assert_true(cpu_has(c, FEAT_SSE));
    assert_false(cpu_has(c, FEAT_SSE2));
    assert_true(cpu_has(c, FEAT_MMXEXT));
    assert_true(cpu_has(c, FEAT_3DNOW));
    assert_true(cpu_has(c, FEAT_3DNOWEXT));
    assert_false(cpu_has(c, FEAT_LM));
    assert_false(cpu_has(c, FEAT_INVARIANT_TSC));
    expect_cache(c, CACHE_DATA, 1, 2, 64 * KB, 64);
    expect_cache(c, CACHE_INSN, 1, 2, 64 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 2, 16, 512 * KB, 64);
    expect_cache(c, CACHE_TLB_DATA, 1, 4, 8, 2048);
    expect_cache(c, CACHE_TLB_INSN, 1, FULL, 8, 2048);
    expect_cache(c, CACHE_TLB_DATA, 1, FULL, 32, 4);
    expect_cache(c, CACHE_TLB_INSN, 1, FULL, 16, 4);
    expect_cache(c, CACHE_TLB_DATA, 2, 4, 256, 4);
    expect_cache(c, CACHE_TLB_INSN, 2, 4, 256, 4);
    assert_int_equal(c->ncaches, 9);
}

static void test_amd_zen2_matisse(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_amd_zen2_matisse_870f10);
    assert_int_equal(c->vendor, VENDOR_AMD);
    assert_int_equal(c->family, 0x17);
    assert_int_equal(c->model, 0x71);
    assert_int_equal(c->stepping, 0);
    assert_string_equal(c->name, "Zen 2");
    assert_string_equal(c->brand, "AMD Ryzen 9 PRO 3900 12-Core Processor");
    assert_int_equal(c->max_ext_leaf, 0x80000020);
    assert_true(cpu_has(c, FEAT_AVX2));
    assert_true(cpu_has(c, FEAT_SHA));
    assert_true(cpu_has(c, FEAT_RDTSCP));
    assert_true(cpu_has(c, FEAT_PERFCTR_CORE));
    assert_true(cpu_has(c, FEAT_TOPOEXT));
    assert_true(cpu_has(c, FEAT_SSE4A));
    assert_true(cpu_has(c, FEAT_INVARIANT_TSC));
    assert_false(cpu_has(c, FEAT_AVX512F));
    assert_int_equal(c->perfmon.version, 0); /* AMD has no leaf 0xA */
    /* Caches per core complex from 0x8000001D (0x80000006 would say 64 MB L3). */
    expect_cache(c, CACHE_DATA, 1, 8, 32 * KB, 64);
    expect_cache(c, CACHE_INSN, 1, 8, 32 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 2, 8, 512 * KB, 64);
    expect_cache(c, CACHE_UNIFIED, 3, 16, 16 * MB, 64);
    expect_cache(c, CACHE_TLB_DATA, 1, FULL, 64, 4);
    expect_cache(c, CACHE_TLB_INSN, 1, FULL, 64, 2048);
    expect_cache(c, CACHE_TLB_DATA, 2, 8, 2048, 4);
    expect_cache(c, CACHE_TLB_DATA, 2, 4, 2048, 2048);
    expect_cache(c, CACHE_TLB_INSN, 2, 8, 1024, 4);
    assert_int_equal(c->ncaches, 12);
    assert_true(raw_read(c, 0x8000001d, 4)); /* terminator */
    assert_false(raw_read(c, 0x8000001d, 5));
}

static void test_via_c3_nehemiah(void **state)
{
    (void)state;
    const struct cpu_info *c = probe(&dump_via_c3_nehemiah_691);
    assert_int_equal(c->vendor, VENDOR_CENTAUR);
    assert_string_equal(c->vendor_string, "CentaurHauls");
    assert_int_equal(c->family, 6);
    assert_int_equal(c->model, 9);
    assert_int_equal(c->stepping, 1);
    assert_string_equal(c->name, "C3 (Nehemiah)");
    assert_string_equal(c->brand, "VIA Nehemiah");
    assert_true(cpu_has(c, FEAT_SSE));
    assert_true(cpu_has(c, FEAT_CMOV));
    assert_false(cpu_has(c, FEAT_SSE2));
    expect_cache(c, CACHE_DATA, 1, 4, 64 * KB, 32);
    expect_cache(c, CACHE_INSN, 1, 4, 64 * KB, 32);
    expect_cache(c, CACHE_UNIFIED, 2, 0, 64 * KB, 32); /* reported as 65 KB */
    expect_cache(c, CACHE_TLB_DATA, 1, 8, 128, 4);
    expect_cache(c, CACHE_TLB_INSN, 1, 8, 128, 4);
    assert_int_equal(c->ncaches, 5);
    assert_false(raw_read(c, 0x80000009, 0)); /* in range, but nothing we decode */
}

/* bench_unmet on dumped CPUs: a BENCH64 record runs only where the platform
 * has call64, else it is skipped with "64-bit body: " and the platform's
 * long_mode_why; an AVX-512 need is checked against CPUID first (a CPU
 * without AVX-512 is told so), then against XCR0 bits 5-7. XCR0 comes from
 * a simulated XGETBV; the platform is this test's own (installed per case). */
static uint64_t gate_xcr0;
static uint64_t gate_xgetbv(uint32_t xcr)
{
    assert_int_equal(xcr, 0);
    return gate_xcr0;
}

static uintptr_t gate_call64(uintptr_t fn, uintptr_t arg)
{
    (void)fn;
    return arg;
}

static const struct cpu_probe_ops gate_ops = {
    .eflags_toggles = sim_eflags_toggles,
    .fpu_present = sim_fpu_present,
    .cpuid = sim_cpuid,
    .xgetbv = gate_xgetbv,
};

static struct platform gate_platform = { .name = "unit-test", .cmdline = "", .cpu_ops = &gate_ops };

/* The CPU of `d` identified, and XCR0 as the OS would have set it. */
static void gate_machine(const struct cpu_dump *d, uint64_t xcr0)
{
    sim_start(d);
    gate_xcr0 = xcr0;
    platform_install(&gate_platform);
    cpu_probe_platform(&gate_ops);
    cpu_xstate_probe();
}

static char gate_why[160];

static const char *gate_unmet(const struct bench *b)
{
    return bench_unmet(b, false, gate_why, sizeof gate_why);
}

static void test_long_mode_gate(void **state)
{
    (void)state;
    const struct bench b64 = { .name = "lat64/x", .mode = 64 }, b32 = { .name = "lat/x" };
    gate_machine(&dump_amd_zen2_matisse_870f10, 0x7);
    gate_platform.call64 = NULL;
    gate_platform.long_mode_why = "the CPU has no long mode (CPUID 0x80000001.EDX.LM)";
    assert_string_equal(gate_unmet(&b64), "64-bit body: the CPU has no long mode (CPUID 0x80000001.EDX.LM)");
    assert_null(gate_unmet(&b32));
    gate_platform.long_mode_why = NULL; /* a platform that gives no reason still gets one */
    assert_string_equal(gate_unmet(&b64), "64-bit body: this platform runs no 64-bit code");
    gate_platform.call64 = gate_call64;
    assert_null(gate_unmet(&b64));
    assert_null(gate_unmet(&b32));
}

static void test_avx512_gate(void **state)
{
    (void)state;
    const struct bench zmm = { .name = "simd64/z", .mode = 64, .needs = { FEAT_AVX512F } };
    const struct bench vl = { .name = "simd64/vl", .mode = 64, .needs = { FEAT_AVX512F, FEAT_AVX512VL } };
    const struct bench ymm = { .name = "simd64/y", .mode = 64, .needs = { FEAT_AVX, FEAT_AVX2 } };
    gate_platform.call64 = gate_call64;

    gate_machine(&dump_intel_sapphire_rapids_806f8, 0xe7); /* x87 SSE AVX opmask ZMM_Hi256 Hi16_ZMM */
    assert_null(gate_unmet(&zmm));
    assert_null(gate_unmet(&vl));
    assert_null(gate_unmet(&ymm));

    gate_machine(&dump_intel_sapphire_rapids_806f8, 0x7); /* the OS left AVX-512 off */
    assert_string_equal(gate_unmet(&zmm), "AVX-512 needs XCR0.SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM (0xe6) "
                                     "enabled by the OS; XCR0 = 0x7");
    assert_string_equal(gate_unmet(&vl), "AVX-512 needs XCR0.SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM (0xe6) "
                                    "enabled by the OS; XCR0 = 0x7");
    assert_null(gate_unmet(&ymm));

    gate_machine(&dump_intel_sapphire_rapids_806f8, 0x3); /* not even AVX: each gate names its bits */
    assert_string_equal(gate_unmet(&zmm), "AVX-512 needs XCR0.SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM (0xe6) "
                                     "enabled by the OS; XCR0 = 0x3");
    assert_string_equal(gate_unmet(&ymm), "AVX needs XCR0.SSE|AVX enabled by the OS; XCR0 = 0x3");

    gate_machine(&dump_amd_zen2_matisse_870f10, 0xe7); /* no AVX-512 in CPUID: said first */
    assert_string_equal(gate_unmet(&zmm), "needs avx512f (CPUID 7.ebx bit 16), which this CPU lacks");
    assert_null(gate_unmet(&ymm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p54c),
        cmocka_unit_test(test_p55c),
        cmocka_unit_test(test_pentium_pro),
        cmocka_unit_test(test_pentium4_northwood),
        cmocka_unit_test(test_core2_conroe),
        cmocka_unit_test(test_skylake),
        cmocka_unit_test(test_sapphire_rapids),
        cmocka_unit_test(test_kvm_guest_saying_rocket_lake),
        cmocka_unit_test(test_amd_k6_2),
        cmocka_unit_test(test_amd_k7_barton),
        cmocka_unit_test(test_amd_zen2_matisse),
        cmocka_unit_test(test_via_c3_nehemiah),
        cmocka_unit_test(test_long_mode_gate),
        cmocka_unit_test(test_avx512_gate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
