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
    assert_string_equal(name_of(&dump_intel_p55c_582), "P5");
    assert_string_equal(name_of(&dump_intel_ppro_619), "P6");
    assert_string_equal(name_of(&dump_intel_sapphire_rapids_806f8), "Golden Cove");
    assert_string_equal(name_of(&dump_amd_zen2_matisse_870f10), "Zen");
}

/* CPUs no file claims: no microarchitecture, so no benchmark has an expectation. */
static void unknown_identities_get_no_expectation(void **state)
{
    (void)state;
    const struct cpu_dump *none[] = { &dump_intel_skylake_506e3, &dump_intel_conroe_6f6,
                                      &dump_intel_p4_northwood_f29, &dump_amd_k6_2_580,
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
    /* A benchmark the table has no row for, and a name no benchmark has. */
    assert_null(expect_on(probe(&dump_intel_sapphire_rapids_806f8), "p5/pairing/pair", &from));
    assert_null(expect_on(probe(&dump_intel_p54c_525), "no/such/bench", &from));
}

/* A generation's own file is read before its family's: Zen 4 (family 19h
 * model 61h, Raphael) takes zen4.c's LLVM rows and, where zen4.c has none,
 * zen.c's cited ones; Zen 3 (model 21h, Vermeer) only zen.c's. */
static void a_generation_first_then_its_family(void **state)
{
    (void)state;
    const struct uarch *from;
    struct cpu_info c = { .generation = CPU_GEN_CPUID, .vendor = VENDOR_AMD, .family = 0x19,
                          .model = 0x61 };
    assert_string_equal(uarch_name(uarch_of(&c)), "Zen 4");
    const struct uarch_expect *e = expect_on(&c, "lat/imul", &from);
    assert_string_equal(from->name, "Zen 4");
    assert_int_equal(e->x100, 300);
    assert_string_equal(e->source, "LLVM 16 znver4 scheduling model");
    e = expect_on(&c, "lat64/imul", &from);
    assert_string_equal(from->name, "Zen");
    assert_int_equal(e->x100, 300);
    c.model = 0x21;
    assert_string_equal(uarch_name(uarch_of(&c)), "Zen");
    assert_null(expect_on(&c, "lat/imul", &from));
    assert_non_null(expect_on(&c, "lat64/imul", &from));
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
    assert_null(uarch_named("Skylake"));
    assert_null(uarch_named("P"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dumps_find_their_microarchitecture),
        cmocka_unit_test(unknown_identities_get_no_expectation),
        cmocka_unit_test(tables_give_the_value_and_its_source),
        cmocka_unit_test(a_generation_first_then_its_family),
        cmocka_unit_test(a_486_without_cpuid),
        cmocka_unit_test(an_uncertain_identity_attaches_no_table),
        cmocka_unit_test(every_range_matches_its_file_narrowest_first),
        cmocka_unit_test(names_are_unique_and_found_loosely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
