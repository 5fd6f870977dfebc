/* The microarchitecture room (kernel/uarch/): which table a CPU gets, from
 * real CPUID dumps and made-up identities, and what the registry promises
 * every file (names unique, no two files claiming an identity equally). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "../cpu_dumps/dump.h"
#include "../cpu_dumps/intel_p54c_525.h"
#include "../cpu_dumps/intel_p55c_582.h"
#include "../cpu_dumps/intel_ppro_619.h"
#include "../cpu_dumps/intel_p4_northwood_f29.h"
#include "../cpu_dumps/intel_conroe_6f6.h"
#include "../cpu_dumps/intel_skylake_506e3.h"
#include "../cpu_dumps/intel_sapphire_rapids_806f8.h"
#include "../cpu_dumps/amd_k6_2_580.h"
#include "../cpu_dumps/amd_zen2_matisse_870f10.h"
#include "../cpu_dumps/via_c3_nehemiah_691.h"
#include "../cpu_dumps/intel_kvm_a7_amx.h"
#include "cpu/cpu_models.h"
#include "uarch/llvm_model.h"
#include "uarch/uarch.h"

static struct cpu_info info;

static const struct cpu_info *probe(const struct cpu_dump *d)
{
    sim_start(d);
    cpu_probe_with(&info, &sim_ops);
    return &info;
}

static const char *name_of(const struct cpu_dump *d) { return uarch_name(uarch_of(probe(d))); }

/* The expectation the harness would take for `bench` on c, and from whom. */
static const struct uarch_expect *expect_on(const struct cpu_info *c, const char *bench,
                                            const struct uarch **from)
{
    struct uarch_match m;
    uarch_match(c, &m);
    *from = NULL;
    return uarch_expect_for(&m, bench, from);
}

static void dumps_find_their_microarchitecture(void **state)
{
    (void)state;
    assert_string_equal(name_of(&dump_intel_p54c_525), "P5");
    assert_string_equal(name_of(&dump_intel_p55c_582), "P55C"); /* its own rows first, p55c.c */
    assert_string_equal(name_of(&dump_intel_ppro_619), "P6");
    assert_string_equal(name_of(&dump_intel_sapphire_rapids_806f8), "Golden Cove");
    assert_string_equal(name_of(&dump_amd_zen2_matisse_870f10), "Zen");
}

/* CPUs no file claims and LLVM has no model of (cpu_models.c names no LLVM
 * CPU with a scheduling model for them): no microarchitecture, so no
 * benchmark has an expectation. */
static void unknown_identities_get_no_expectation(void **state)
{
    (void)state;
    const struct cpu_dump *none[] = { &dump_intel_p4_northwood_f29, &dump_amd_k6_2_580,
                                      &dump_via_c3_nehemiah_691 };
    for (unsigned i = 0; i < sizeof none / sizeof none[0]; i++) {
        const struct uarch *from;
        const struct cpu_info *c = probe(none[i]);
        assert_null(uarch_of(c));
        assert_string_equal(uarch_name(uarch_of(c)), "none");
        assert_null(expect_on(c, "calib/add_chain", &from));
        assert_null(from);
    }
}

/* A CPU no file claims but cpu_models.c maps to an LLVM CPU with a model
 * gets that model's generated table: Skylake (506E3) LLVM's skylake, Conroe
 * LLVM's core2 (which LLVM 16 models with Sandy Bridge's resources). */
static void llvm_models_cover_what_no_file_claims(void **state)
{
    (void)state;
    const struct uarch *from;
    const struct cpu_info *c = probe(&dump_intel_skylake_506e3);
    assert_string_equal(uarch_name(uarch_of(c)), "skylake");
    const struct uarch_expect *e = expect_on(c, "lat/imul", &from);
    assert_non_null(e);
    assert_string_equal(from->name, "skylake");
    assert_string_equal(e->source, "LLVM 16 skylake model");
    assert_string_equal(uarch_source_kind(e->source), "LLVM");
    assert_int_equal(e->x100, 300);
    c = probe(&dump_intel_conroe_6f6);
    assert_string_equal(uarch_name(uarch_of(c)), "core2");
    assert_string_equal(llvm_model_named("core2")->resources, "SB");
}

static void tables_give_the_value_and_its_source(void **state)
{
    (void)state;
    const struct uarch *from;
    const struct uarch_expect *e =
        expect_on(probe(&dump_intel_p54c_525), "p5/lockstep/rmw_rmw", &from);
    assert_non_null(e);
    assert_string_equal(from->name, "P5");
    assert_int_equal(e->x100, 500);
    assert_non_null(strstr(e->source, "P5 pairing model"));
    e = expect_on(probe(&dump_intel_sapphire_rapids_806f8), "sys/rdtscp", &from);
    assert_string_equal(from->name, "Golden Cove");
    assert_int_equal(e->x100, 3000);
    assert_int_equal(e->tol_x100, 500);
    /* A benchmark the cited table has no row for takes LLVM's model; one no
     * table has (CPUID: no model states its cost), and a name no benchmark has. */
    e = expect_on(probe(&dump_intel_sapphire_rapids_806f8), "p5/pairing/pair", &from);
    assert_string_equal(from->name, "sapphirerapids");
    assert_string_equal(e->source, "LLVM 16 sapphirerapids model");
    assert_null(expect_on(probe(&dump_intel_sapphire_rapids_806f8), "sys/cpuid/leaf_7", &from));
    assert_null(expect_on(probe(&dump_intel_p54c_525), "no/such/bench", &from));
}

/* The P55C (Pentium MMX) has its own rows where it differs from the P54C
 * (kernel/uarch/p55c.c: BSWAP 1 clock, [IL55]); every other benchmark takes
 * the P5 table's value, and a P54C never sees the P55C's. */
static void the_p55c_differs_from_the_p54c_only_where_it_must(void **state)
{
    (void)state;
    const struct uarch *from;
    const struct uarch_expect *e = expect_on(probe(&dump_intel_p55c_582), "lat/bswap", &from);
    assert_non_null(e);
    assert_string_equal(from->name, "P55C");
    assert_int_equal(e->x100, 100);
    e = expect_on(probe(&dump_intel_p54c_525), "lat/bswap", &from);
    assert_string_equal(from->name, "P5");
    assert_int_equal(e->x100, 200);
    e = expect_on(probe(&dump_intel_p55c_582), "p5/pairing/prefix66", &from);
    assert_string_equal(from->name, "P55C");
    assert_int_equal(e->x100, 600);
    e = expect_on(probe(&dump_intel_p55c_582), "lat/add", &from);
    assert_string_equal(from->name, "P5");
    assert_int_equal(e->x100, 100);
    assert_string_equal(uarch_named("p55c")->name, "P55C");
}

/* A family's cited values come before LLVM's model of the generation: Zen 4
 * (family 19h model 61h, Raphael) takes zen.c's cited IMUL r64 and LLVM's
 * znver4 model where zen.c has no row; Zen 3 (model 21h, Vermeer) znver3's. */
static void cited_values_first_then_the_llvm_model(void **state)
{
    (void)state;
    const struct uarch *from;
    struct cpu_info c = { .generation = CPU_GEN_CPUID, .vendor = VENDOR_AMD, .family = 0x19,
                          .model = 0x61 };
    c.features[cpu_feature_word(FEAT_AVX512F)] |= 1u << cpu_feature_bit(FEAT_AVX512F);
    c.features[cpu_feature_word(FEAT_AVX2)] |= 1u << cpu_feature_bit(FEAT_AVX2);
    assert_string_equal(uarch_name(uarch_of(&c)), "Zen");
    const struct uarch_expect *e = expect_on(&c, "lat/imul", &from);
    assert_string_equal(from->name, "znver4");
    assert_int_equal(e->x100, 300);
    assert_string_equal(e->source, "LLVM 16 znver4 model");
    e = expect_on(&c, "lat64/imul", &from);
    assert_string_equal(from->name, "Zen");
    assert_string_equal(uarch_source_kind(e->source), "cited");
    c.model = 0x21;
    c.features[cpu_feature_word(FEAT_AVX512F)] = 0;
    assert_non_null(expect_on(&c, "lat/imul", &from));
    assert_string_equal(from->name, "znver3");
}

/* A 486 without CPUID is known by the probe alone. */
static void a_486_without_cpuid(void **state)
{
    (void)state;
    sim_start_pre_cpuid(true, true);
    cpu_probe_with(&info, &sim_ops);
    assert_int_equal(info.generation, CPU_GEN_486_NO_CPUID);
    assert_string_equal(uarch_name(uarch_of(&info)), "486");
    sim_start_pre_cpuid(false, false); /* a 386: AC does not toggle */
    cpu_probe_with(&info, &sim_ops);
    assert_null(uarch_of(&info));
}

/* The identity sanity check's place: an uncertain identity attaches no table. */
static void an_uncertain_identity_attaches_no_table(void **state)
{
    (void)state;
    struct uarch_match m;
    const struct uarch *from = NULL;
    uarch_match(probe(&dump_intel_p54c_525), &m);
    assert_non_null(uarch_expect_for(&m, "calib/add_chain", &from));
    m.uncertain = true;
    from = NULL;
    assert_null(uarch_expect_for(&m, "calib/add_chain", &from));
    assert_null(from);
}

static struct cpu_info identity(const struct uarch_range *r, unsigned model)
{
    struct cpu_info c = { .generation = r->no_cpuid ? CPU_GEN_486_NO_CPUID : CPU_GEN_CPUID,
                          .vendor = r->vendor, .family = r->family, .model = model,
                          .stepping = r->stepping_first };
    return c;
}

/* The span of the narrowest of u's ranges that hold c. */
static uint32_t narrowest(const struct uarch *u, const struct cpu_info *c)
{
    uint32_t w = 0xffffffffu;
    for (unsigned j = 0; j < u->nranges; j++)
        if (uarch_range_holds(&u->ranges[j], c) && uarch_range_span(&u->ranges[j]) < w)
            w = uarch_range_span(&u->ranges[j]);
    return w;
}

/* Every range's own file is among the matches of its identities, and the
 * matches come narrowest range first; no two files claim one identity with
 * ranges of the same width (which one came first would be link order). */
static void every_range_matches_its_file_narrowest_first(void **state)
{
    (void)state;
    for (const struct uarch *u = uarch_begin(); u < uarch_end(); u++)
        for (unsigned i = 0; i < u->nranges; i++) {
            const struct uarch_range *r = &u->ranges[i];
            for (unsigned model = r->first; model <= r->last; model += r->no_cpuid ? 256 : 1) {
                struct cpu_info c = identity(r, model);
                struct uarch_match m;
                uarch_match(&c, &m);
                bool found = false;
                uint32_t last = 0;
                for (unsigned k = 0; k < m.n; k++) {
                    found |= m.u[k] == u;
                    uint32_t w = narrowest(m.u[k], &c);
                    if (k > 0 && w == last)
                        fail_msg("%s and %s claim %s family %x model %x equally", m.u[k - 1]->name,
                                 m.u[k]->name, cpu_vendor_name(c.vendor), c.family, model);
                    assert_true(w > last);
                    last = w;
                }
                if (!found)
                    fail_msg("%s: its range %u does not find it", u->name, i);
            }
        }
}

static void names_are_unique_and_found_loosely(void **state)
{
    (void)state;
    unsigned n = 0;
    for (const struct uarch *u = uarch_begin(); u < uarch_end(); u++, n++) {
        assert_ptr_equal(uarch_named(u->name), u);
        assert_non_null(u->covers);
        for (unsigned i = 0; i < u->ntable; i++) {
            assert_non_null(u->table[i].source);
            /* One row per benchmark: a second would never be read. */
            assert_ptr_equal(uarch_table_row(u, u->table[i].bench), &u->table[i]);
        }
    }
    assert_true(n >= 5);
    assert_string_equal(uarch_named("golden_cove")->name, "Golden Cove");
    assert_string_equal(uarch_named("p5")->name, "P5");
    assert_string_equal(uarch_named("Skylake-AVX512")->name, "skylake-avx512");
    assert_null(uarch_named("Coffee Lake"));
    assert_null(uarch_named("P"));
}

/* Identity sanity (issue 20, point 7): an identity whose features
 * contradict the microarchitecture its model number names is uncertain, the
 * reason names both, and no benchmark gets an expectation, not even a
 * family's cited one. */
static void assert_uncertain(const struct cpu_dump *d, const char *says, const char *because)
{
    char why[200];
    struct uarch_match m;
    const struct uarch *from = NULL;
    const struct cpu_info *c = probe(d);
    assert_true(uarch_identity_uncertain(c, why, sizeof why));
    if (!strstr(why, says) || !strstr(why, because))
        fail_msg("%s: the reason \"%s\" lacks \"%s\" or \"%s\"", d->source, why, says, because);
    uarch_match(c, &m);
    assert_true(m.uncertain);
    assert_null(uarch_llvm_of(c));
    const char *benches[] = { "calib/add_chain", "lat/add", "lat/imul", "lat64/imul", "simd64/vpaddd_zmm" };
    for (unsigned i = 0; i < sizeof benches / sizeof benches[0]; i++)
        assert_null(uarch_expect_for(&m, benches[i], &from));
    assert_null(from);
}

/* A made-up CPU: a real dump's leaves, some of them changed by the test. */
static struct dump_leaf made_up_leaves[128];

static struct cpu_dump made_up(const struct cpu_dump *base, const char *what)
{
    assert_true(base->n <= sizeof made_up_leaves / sizeof made_up_leaves[0]);
    memcpy(made_up_leaves, base->leaves, base->n * sizeof base->leaves[0]);
    return (struct cpu_dump){ what, made_up_leaves, base->n };
}

static struct dump_leaf *made_up_leaf(uint32_t leaf, uint32_t subleaf)
{
    for (unsigned i = 0; i < sizeof made_up_leaves / sizeof made_up_leaves[0]; i++)
        if (made_up_leaves[i].leaf == leaf && made_up_leaves[i].subleaf == subleaf)
            return &made_up_leaves[i];
    fail_msg("the base dump has no leaf 0x%x.%u", leaf, subleaf);
    return NULL;
}

static void contradicting_identities_are_uncertain(void **state)
{
    (void)state;
    /* This project's host: a KVM guest saying model 0xA7 on a core with AMX:
     * its features name it (kernel/cpu/cpu_core.c, tests/unit/cpu), so it is
     * certain, and never called by the model number's name. */
    assert_false(uarch_identity_uncertain(probe(&dump_intel_kvm_a7_amx), NULL, 0));
    assert_string_equal(info.name, "Granite Rapids (Redwood Cove)");
    /* Made up: a Skylake (506E3) with AVX512-FP16, CPUID.(7,0):EDX[23]: no
     * core has AVX512-FP16 without AMX, so the features name none. */
    struct cpu_dump d = made_up(&dump_intel_skylake_506e3, "synthetic: Skylake 506E3 with AVX512-FP16");
    made_up_leaf(7, 0)->edx |= 1u << 23;
    assert_uncertain(&d, "model 0x5E) names a core", "without AVX512-FP16, which this CPU has");
    assert_string_equal(info.name, "unknown (no core known has these features)");
    /* Made up: Zen 2 Matisse's leaves under a Zen 4 Raphael's signature
     * (family 19h model 61h, in CPUID.1 and 80000001h EAX): no AVX-512,
     * which every Zen 4 has; of family 19h, the features are Zen 3's. */
    d = made_up(&dump_amd_zen2_matisse_870f10, "synthetic: a Zen 4 signature without AVX-512");
    made_up_leaf(1, 0)->eax = 0x00a60f12;
    made_up_leaf(0x80000001, 0)->eax = 0x00a60f12;
    char why[200];
    const struct cpu_info *c = probe(&d);
    assert_false(uarch_identity_uncertain(c, why, sizeof why));
    assert_string_equal(c->name, "Zen 3");
    if (!strstr(why, "family 0x19, model 0x61) names a core with AVX-512F, which this CPU lacks"))
        fail_msg("the reason \"%s\"", why);
    assert_string_equal(uarch_name(uarch_llvm_of(c)), "znver3");
}

/* Identities whose features agree keep their tables: a Sapphire Rapids
 * takes Golden Cove's cited rows, then LLVM's sapphirerapids model. */
static void agreeing_identities_are_certain(void **state)
{
    (void)state;
    const struct cpu_dump *fine[] = { &dump_intel_sapphire_rapids_806f8, &dump_intel_skylake_506e3,
                                      &dump_amd_zen2_matisse_870f10, &dump_intel_p54c_525 };
    for (unsigned i = 0; i < sizeof fine / sizeof fine[0]; i++)
        assert_false(uarch_identity_uncertain(probe(fine[i]), NULL, 0));
    const struct uarch *from;
    const struct cpu_info *c = probe(&dump_intel_sapphire_rapids_806f8);
    assert_non_null(expect_on(c, "sys/rdtscp", &from));
    assert_string_equal(from->name, "Golden Cove");
    assert_non_null(expect_on(c, "simd64/vpaddd_zmm", &from));
    assert_string_equal(from->name, "sapphirerapids");
}

/* Every LLVM name of cpu_models.c is one llvm_cpus.c knows (so the sanity
 * check has its features and the generator ran llvm-mca for it). */
static void every_llvm_name_of_the_model_table_is_known(void **state)
{
    (void)state;
    unsigned named = 0;
    for (unsigned v = VENDOR_INTEL; v <= VENDOR_VIRTUAL; v++)
        for (unsigned f = 4; f <= 0x1a; f++)
            for (unsigned m = 0; m < 256; m++) {
                const struct cpu_model *row = cpu_model_lookup(v, f, m, 0, 0);
                if (!row || !row->llvm)
                    continue;
                named++;
                if (!llvm_cpu_named(row->llvm))
                    fail_msg("cpu_models.c: %s maps to LLVM's %s, which llvm_cpus.c lacks",
                             row->name, row->llvm);
            }
    assert_true(named > 100);
}

static bool one_of(const char *name, const char *const *list, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0)
            return true;
    return false;
}

/* The generated tables (llvm_tables.c): each belongs to a known LLVM CPU, names
 * its source as "LLVM <major> <cpu> model", has one row per benchmark with a
 * plausible value; the microarchitectures issue 21 names have the rows every
 * 64-bit core runs, and the AVX-512 ones the zmm rows. */
static void generated_tables_are_well_formed(void **state)
{
    (void)state;
    static const char *const required[] = { "skylake-avx512", "icelake-server", "sapphirerapids",
                                            "alderlake", "znver3", "znver4" };
    static const char *const avx512[] = { "skylake-avx512", "icelake-server", "sapphirerapids",
                                          "znver4" };
    unsigned found = 0;
    char source[64], major[8] = "";
    for (unsigned i = 0; i < 7 && llvm_models_version[5 + i] != '.'; i++)
        major[i] = llvm_models_version[5 + i];
    for (unsigned i = 0; i < llvm_model_count; i++) {
        const struct uarch *u = &llvm_models[i].u;
        assert_non_null(llvm_cpu_named(u->name));
        assert_true(u->ntable >= 50);
        assert_null(u->ranges);
        assert_ptr_equal(uarch_named(u->name), u);
        snprintf(source, sizeof source, "LLVM %s %s model", major, u->name);
        for (unsigned r = 0; r < u->ntable; r++) {
            assert_string_equal(u->table[r].source, source);
            assert_ptr_equal(uarch_table_row(u, u->table[r].bench), &u->table[r]);
            assert_true(u->table[r].x100 > 0 && u->table[r].x100 < 100000);
            assert_int_equal(u->table[r].tol_x100, 0);
        }
        if (!one_of(u->name, required, 6))
            continue;
        found++;
        const char *every[] = { "calib/add_chain", "lat/add", "lat/imul/tput", "lat64/imul", "simd64/vpaddd_ymm" };
        for (unsigned b = 0; b < sizeof every / sizeof every[0]; b++)
            if (!uarch_table_row(u, every[b]))
                fail_msg("%s has no row for %s", u->name, every[b]);
        if (one_of(u->name, avx512, 4))
            assert_non_null(uarch_table_row(u, "simd64/vpaddd_zmm"));
        /* Skipped with a reason in the generated file: no model states CPUID's cost. */
        assert_null(uarch_table_row(u, "sys/cpuid/leaf_0"));
        assert_null(uarch_table_row(u, "mem/chase/1K"));
    }
    assert_int_equal(found, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dumps_find_their_microarchitecture),
        cmocka_unit_test(unknown_identities_get_no_expectation),
        cmocka_unit_test(tables_give_the_value_and_its_source),
        cmocka_unit_test(the_p55c_differs_from_the_p54c_only_where_it_must),
        cmocka_unit_test(cited_values_first_then_the_llvm_model),
        cmocka_unit_test(llvm_models_cover_what_no_file_claims),
        cmocka_unit_test(contradicting_identities_are_uncertain),
        cmocka_unit_test(agreeing_identities_are_certain),
        cmocka_unit_test(every_llvm_name_of_the_model_table_is_known),
        cmocka_unit_test(generated_tables_are_well_formed),
        cmocka_unit_test(a_486_without_cpuid),
        cmocka_unit_test(an_uncertain_identity_attaches_no_table),
        cmocka_unit_test(every_range_matches_its_file_narrowest_first),
        cmocka_unit_test(names_are_unique_and_found_loosely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
