/* Which processors run a benchmark (kernel/run/on_cpus.c): on_choose on
 * made-up smp_info tables, since no hybrid CPU (CPUID leaf 1AH: 20H Atom,
 * 40H Core; SDM Vol. 2A) can be booted under QEMU. Asserted exactly: the
 * targets (slot, APIC ID, core type, order) and whether the hybrid default
 * holds; then once through on_targets with a fake platform's start-up, for
 * the note it writes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "capture.h"
#include "options/option.h"
#include "platform/platform.h"
#include "run/on_cpus.h"
#include "run/smp_phase.h"

#define ATOM 0x20
#define CORE 0x40

static bool none_abandoned[SMP_MAX_CPUS];

/* n processors, APIC IDs 0, 2, 4, ...; slot 0 the boot one; types[i] each
 * started one's core type (the boot processor's entry has none: never started). */
static struct smp_info table(unsigned n, const unsigned *types)
{
    struct smp_info s;
    memset(&s, 0, sizeof s);
    s.n = n;
    for (unsigned i = 0; i < n; i++) {
        s.cpus[i].apic_id = i * 2;
        s.cpus[i].state = i ? SMP_STARTED : SMP_BSP;
        s.cpus[i].core_type = i ? types[i] : 0;
    }
    return s;
}

static void is(const struct on_target *t, unsigned slot, uint32_t apic_id, unsigned type)
{
    assert_int_equal(t->slot, slot);
    assert_int_equal(t->apic_id, apic_id);
    assert_int_equal(t->core_type, type);
}

static void hybrid_two_types_one_each_boot_first(void **state)
{
    (void)state;
    static const unsigned types[] = { 0, CORE, ATOM, ATOM, CORE, ATOM };
    struct smp_info s = table(6, types);
    struct on_target t[SMP_MAX_CPUS];
    struct on_choice why;
    unsigned n = on_choose(&s, "", CORE, none_abandoned, t, SMP_MAX_CPUS, &why);
    assert_true(why.hybrid);
    assert_null(why.bad);
    assert_int_equal(n, 2);
    is(&t[0], ON_BOOT, 0, CORE);
    is(&t[1], 2, 4, ATOM); /* the first started Atom: slot 2, APIC ID 4 */
}

static void boot_processor_an_atom(void **state)
{
    (void)state;
    static const unsigned types[] = { 0, ATOM, ATOM, CORE };
    struct smp_info s = table(4, types);
    struct on_target t[SMP_MAX_CPUS];
    struct on_choice why;
    assert_int_equal(on_choose(&s, "", ATOM, none_abandoned, t, SMP_MAX_CPUS, &why), 2);
    assert_true(why.hybrid);
    is(&t[0], ON_BOOT, 0, ATOM);
    is(&t[1], 3, 6, CORE);
}

static void three_types(void **state)
{
    (void)state;
    static const unsigned types[] = { 0, CORE, 0, 0x10, ATOM, 0x10, ATOM };
    struct smp_info s = table(7, types); /* slot 2 reports no type: it represents none */
    struct on_target t[SMP_MAX_CPUS];
    struct on_choice why;
    unsigned n = on_choose(&s, "", CORE, none_abandoned, t, SMP_MAX_CPUS, &why);
    assert_true(why.hybrid);
    assert_int_equal(n, 3);
    is(&t[0], ON_BOOT, 0, CORE);
    is(&t[1], 3, 6, 0x10);
    is(&t[2], 4, 8, ATOM);
}

static void not_hybrid_boot_processor_alone(void **state)
{
    (void)state;
    static const unsigned plain[] = { 0, 0, 0, 0 };
    static const unsigned all_core[] = { 0, CORE, CORE, CORE };
    struct smp_info s = table(4, plain);
    struct on_target t[SMP_MAX_CPUS];
    struct on_choice why;
    assert_int_equal(on_choose(&s, "", 0, none_abandoned, t, SMP_MAX_CPUS, &why), 1);
    assert_false(why.hybrid);
    is(&t[0], ON_BOOT, 0, 0);
    s = table(4, all_core); /* one type only (a hybrid part started with P-cores alone) */
    assert_int_equal(on_choose(&s, "", CORE, none_abandoned, t, SMP_MAX_CPUS, &why), 1);
    assert_false(why.hybrid);
    is(&t[0], ON_BOOT, 0, CORE);
    s.n = 0; /* nothing started (one processor, no MADT): as before issue 12 */
    s.bsp_apic_id = 3;
    assert_int_equal(on_choose(&s, "", 0, none_abandoned, t, SMP_MAX_CPUS, &why), 1);
    assert_false(why.hybrid);
    is(&t[0], ON_BOOT, 3, 0);
}

static void on_overrides_the_hybrid_default(void **state)
{
    (void)state;
    static const unsigned types[] = { 0, CORE, ATOM, ATOM };
    struct smp_info s = table(4, types);
    struct on_target t[SMP_MAX_CPUS];
    struct on_choice why;
    assert_int_equal(on_choose(&s, "all", CORE, none_abandoned, t, SMP_MAX_CPUS, &why), 4);
    assert_false(why.hybrid);
    is(&t[0], ON_BOOT, 0, CORE);
    is(&t[1], 1, 2, CORE);
    is(&t[2], 2, 4, ATOM);
    is(&t[3], 3, 6, ATOM);
    assert_int_equal(on_choose(&s, "4,6", CORE, none_abandoned, t, SMP_MAX_CPUS, &why), 2);
    is(&t[0], 2, 4, ATOM);
    is(&t[1], 3, 6, ATOM);
    assert_int_equal(on_choose(&s, "x", CORE, none_abandoned, t, SMP_MAX_CPUS, &why), 1);
    assert_string_equal(why.bad, "not all, a number or a list of APIC IDs");
    assert_false(why.hybrid);
    is(&t[0], ON_BOOT, 0, CORE);
}

static void abandoned_and_silent_processors_skipped(void **state)
{
    (void)state;
    static const unsigned types[] = { 0, CORE, ATOM, ATOM, CORE };
    struct smp_info s = table(5, types);
    struct on_target t[SMP_MAX_CPUS];
    struct on_choice why;
    bool gone[SMP_MAX_CPUS] = { false };
    gone[2] = true;                 /* the first Atom faulted in an earlier benchmark */
    s.cpus[3].state = SMP_NO_ANSWER; /* the second never answered */
    s.cpus[4].core_type = ATOM;     /* a third Atom, started */
    assert_int_equal(on_choose(&s, "", CORE, gone, t, SMP_MAX_CPUS, &why), 2);
    assert_true(why.hybrid);
    is(&t[0], ON_BOOT, 0, CORE);
    is(&t[1], 4, 8, ATOM);
}

static void type_whose_only_processor_was_abandoned_left_out(void **state)
{
    (void)state;
    static const unsigned types[] = { 0, CORE, ATOM, 0x10 };
    struct smp_info s = table(4, types);
    struct on_target t[SMP_MAX_CPUS];
    struct on_choice why;
    bool gone[SMP_MAX_CPUS] = { false };
    gone[2] = true;
    assert_int_equal(on_choose(&s, "", CORE, gone, t, SMP_MAX_CPUS, &why), 2);
    assert_true(why.hybrid); /* still a hybrid run: results keep naming their processor */
    is(&t[0], ON_BOOT, 0, CORE);
    is(&t[1], 3, 6, 0x10);
    gone[3] = true; /* every other type gone: the boot processor alone, still named */
    assert_int_equal(on_choose(&s, "", CORE, gone, t, SMP_MAX_CPUS, &why), 1);
    assert_true(why.hybrid);
    is(&t[0], ON_BOOT, 0, CORE);
}

static void max_bounds_the_targets(void **state)
{
    (void)state;
    static const unsigned types[] = { 0, ATOM, 0x10 };
    struct smp_info s = table(3, types);
    struct on_target t[2];
    struct on_choice why;
    assert_int_equal(on_choose(&s, "", CORE, none_abandoned, t, 2, &why), 2);
    is(&t[0], ON_BOOT, 0, CORE);
    is(&t[1], 1, 2, ATOM);
}

/* Through on_targets: a fake platform "starts" a hybrid machine (APIC IDs
 * 0..3: the boot one, a Core, two Atoms); the host's boot processor decodes
 * no core type (no CPUID probe here), so the Core represents its type. */
static void fake_start(const struct smp_request *req, struct smp_info *out)
{
    static const unsigned types[] = { 0, CORE, ATOM, ATOM };
    out->method = "fake";
    out->bsp_apic_id = 0;
    for (unsigned i = 0; i < req->n; i++) {
        out->cpus[i].apic_id = req->apic_ids[i];
        out->cpus[i].state = i ? SMP_STARTED : SMP_BSP;
        out->cpus[i].core_type = types[i];
    }
    out->n = req->n;
}

static void on_targets_notes_the_hybrid_default_once(void **state)
{
    (void)state;
    static const struct platform fake = { .name = "fake", .smp_start = fake_start };
    static const uint32_t ids[] = { 0, 1, 2, 3 };
    struct on_target t[SMP_MAX_CPUS];
    smp_phase(&fake, ids, 4, "the MADT", 0);
    capture_reset();
    assert_int_equal(on_targets(t, SMP_MAX_CPUS), 3);
    assert_true(on_names_cpu());
    is(&t[0], ON_BOOT, 0, 0);
    is(&t[1], 1, 1, CORE);
    is(&t[2], 2, 2, ATOM);
    const char *note = "hybrid CPU: without on= each benchmark runs once per core type: type not known on "
                       "APIC ID 0 (the boot processor), core (0x40) on APIC ID 1, atom (0x20) on APIC ID 2";
    assert_non_null(strstr(capture_machine(), note));
    capture_reset();
    assert_int_equal(on_targets(t, SMP_MAX_CPUS), 3);
    assert_null(strstr(capture_machine(), "hybrid CPU"));
    on_abandon(2); /* the Atom's representative abandoned: the next Atom, noted */
    assert_int_equal(on_targets(t, SMP_MAX_CPUS), 3);
    is(&t[2], 3, 3, ATOM);
    assert_non_null(strstr(capture_machine(), "atom (0x20) on APIC ID 3"));
    assert_int_equal(options_parse("on=0"), 0);
    assert_int_equal(on_targets(t, SMP_MAX_CPUS), 1);
    assert_true(on_names_cpu());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hybrid_two_types_one_each_boot_first),
        cmocka_unit_test(boot_processor_an_atom),
        cmocka_unit_test(three_types),
        cmocka_unit_test(not_hybrid_boot_processor_alone),
        cmocka_unit_test(on_overrides_the_hybrid_default),
        cmocka_unit_test(abandoned_and_silent_processors_skipped),
        cmocka_unit_test(type_whose_only_processor_was_abandoned_left_out),
        cmocka_unit_test(max_bounds_the_targets),
        cmocka_unit_test(on_targets_notes_the_hybrid_default_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
