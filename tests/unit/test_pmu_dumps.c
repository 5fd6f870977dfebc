/* Driver choice from recorded CPUID dumps of real processors: the same
 * dumps the identification tests decode (tests/unit/cpu_dumps/, each citing
 * its InstLatx64 source), probed through the simulated CPUID, then handed to
 * pmu_select() and pmu_bind() exactly as the kernel does. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cpu/cpu.h"
#include "pmu/pmu.h"
#include "cpu_dumps/dump.h"
#include "cpu_dumps/amd_k6_2_580.h"
#include "cpu_dumps/amd_k7_barton_6a0.h"
#include "cpu_dumps/amd_zen2_matisse_870f10.h"
#include "cpu_dumps/intel_conroe_6f6.h"
#include "cpu_dumps/intel_p4_northwood_f29.h"
#include "cpu_dumps/intel_p54c_525.h"
#include "cpu_dumps/intel_p55c_582.h"
#include "cpu_dumps/intel_ppro_619.h"
#include "cpu_dumps/intel_sapphire_rapids_806f8.h"
#include "cpu_dumps/intel_skylake_506e3.h"
#include "cpu_dumps/via_c3_nehemiah_691.h"

struct expected_driver {
    const struct cpu_dump *dump;
    enum pmu_kind kind;
    const char *name;
    unsigned gp, gp_width, fixed;
};

static const struct expected_driver cases[] = {
    /* P5: CESR/CTR0/CTR1, two 40-bit counters; the P55C adds the MMX events. */
    { &dump_intel_p54c_525, PMU_P5, "p5", 2, 40, 0 },
    { &dump_intel_p55c_582, PMU_P5, "p5-mmx", 2, 40, 0 },
    /* P6: PerfEvtSel0/1, two 40-bit counters. */
    { &dump_intel_ppro_619, PMU_P6, "p6", 2, 40, 0 },
    /* NetBurst's ESCR/CCCR counters have no driver: reported, not guessed. */
    { &dump_intel_p4_northwood_f29, PMU_NONE, "none", 0, 0, 0 },
    /* Architectural perfmon from leaf 0xA. */
    { &dump_intel_conroe_6f6, PMU_ARCH, "intel-arch-v2", 2, 40, 0 },
    { &dump_intel_skylake_506e3, PMU_ARCH, "intel-arch-v4", 8, 48, 3 },
    { &dump_intel_sapphire_rapids_806f8, PMU_ARCH, "intel-arch-v5", 8, 48, 4 },
    /* AMD: the K6 has no counters; K7 the four legacy ones; Zen 2 the six core ones. */
    { &dump_amd_k6_2_580, PMU_NONE, "none", 0, 0, 0 },
    { &dump_amd_k7_barton_6a0, PMU_AMD, "amd-k7", 4, 48, 0 },
    { &dump_amd_zen2_matisse_870f10, PMU_AMD, "amd-core", 6, 48, 0 },
    { &dump_via_c3_nehemiah_691, PMU_NONE, "none", 0, 0, 0 },
};

static int refuse_read(void *ctx, uint32_t msr, uint64_t *v) { (void)ctx; (void)msr; *v = 0; return 0x10d; }
static int refuse_write(void *ctx, uint32_t msr, uint64_t v) { (void)ctx; (void)msr; (void)v; return 0x10d; }
static const struct msr_ops no_msrs = { refuse_read, refuse_write, NULL };

static void driver_from_dumps(void **state)
{
    (void)state;
    static struct cpu_info info;
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct expected_driver *e = &cases[i];
        sim_start(e->dump);
        cpu_probe_with(&info, &sim_ops);
        const char *why = NULL;
        enum pmu_kind kind = pmu_select(&info, &why);
        struct pmu_driver d;
        pmu_bind(&d, kind, &info, &no_msrs);
        print_message("%-45s -> %-14s %u x %u-bit, %u fixed (%s)\n", e->dump->source, d.name,
                      d.gp_counters, d.gp_width, d.fixed_counters, why ? why : "");
        assert_non_null(why);
        assert_int_equal(kind, e->kind);
        assert_string_equal(d.name, e->name);
        assert_int_equal(d.gp_counters, e->gp);
        assert_int_equal(d.gp_width, e->gp_width);
        assert_int_equal(d.fixed_counters, e->fixed);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(driver_from_dumps) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
