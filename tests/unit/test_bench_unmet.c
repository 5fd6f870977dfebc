/* bench_unmet for 64-bit bodies and AVX-512 needs: a BENCH64 record runs only
 * where the platform has call64, else it is skipped with "64-bit body: " and
 * the platform's long_mode_why; an AVX-512 need is checked against CPUID
 * first (a CPU without AVX-512 is told so), then against XCR0 bits 5-7. The
 * CPU comes from recorded CPUID dumps (Sapphire Rapids: AVX-512; Zen 2:
 * none), XCR0 from a simulated XGETBV. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "cpu_dumps/dump.h"
#include "cpu_dumps/intel_sapphire_rapids_806f8.h"
#include "cpu_dumps/amd_zen2_matisse_870f10.h"
#include "harness/bench.h"
#include "harness/bench_registry.h"
#include "platform/platform.h"

static uint64_t sim_xcr0;
static uint64_t sim_xgetbv(uint32_t xcr)
{
    assert_int_equal(xcr, 0);
    return sim_xcr0;
}

static uintptr_t fake_call64(uintptr_t fn, uintptr_t arg)
{
    (void)fn;
    return arg;
}

static const struct cpu_probe_ops ops = {
    .eflags_toggles = sim_eflags_toggles,
    .fpu_present = sim_fpu_present,
    .cpuid = sim_cpuid,
    .xgetbv = sim_xgetbv,
};

static struct platform plat = { .name = "unit-test", .cmdline = "", .cpu_ops = &ops };

/* The CPU of `d` identified, and XCR0 as the OS would have set it. */
static void machine(const struct cpu_dump *d, uint64_t xcr0)
{
    sim_start(d);
    sim_xcr0 = xcr0;
    platform_install(&plat);
    cpu_probe_platform(&ops);
    cpu_xstate_probe();
}

static char why[160];

static const char *unmet(const struct bench *b)
{
    return bench_unmet(b, false, why, sizeof why);
}

static void long_mode_gate(void **state)
{
    (void)state;
    const struct bench b64 = { .name = "lat64/x", .mode = 64 }, b32 = { .name = "lat/x" };
    machine(&dump_amd_zen2_matisse_870f10, 0x7);
    plat.call64 = NULL;
    plat.long_mode_why = "the CPU has no long mode (CPUID 0x80000001.EDX.LM)";
    assert_string_equal(unmet(&b64), "64-bit body: the CPU has no long mode (CPUID 0x80000001.EDX.LM)");
    assert_null(unmet(&b32));
    plat.long_mode_why = NULL; /* a platform that gives no reason still gets one */
    assert_string_equal(unmet(&b64), "64-bit body: this platform runs no 64-bit code");
    plat.call64 = fake_call64;
    assert_null(unmet(&b64));
    assert_null(unmet(&b32));
}

static void avx512_gate(void **state)
{
    (void)state;
    const struct bench zmm = { .name = "simd64/z", .mode = 64, .needs = { FEAT_AVX512F } };
    const struct bench vl = { .name = "simd64/vl", .mode = 64, .needs = { FEAT_AVX512F, FEAT_AVX512VL } };
    const struct bench ymm = { .name = "simd64/y", .mode = 64, .needs = { FEAT_AVX, FEAT_AVX2 } };
    plat.call64 = fake_call64;

    machine(&dump_intel_sapphire_rapids_806f8, 0xe7); /* x87 SSE AVX opmask ZMM_Hi256 Hi16_ZMM */
    assert_null(unmet(&zmm));
    assert_null(unmet(&vl));
    assert_null(unmet(&ymm));

    machine(&dump_intel_sapphire_rapids_806f8, 0x7); /* the OS left AVX-512 off */
    assert_string_equal(unmet(&zmm), "AVX-512 needs XCR0.SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM (0xe6) "
                                     "enabled by the OS; XCR0 = 0x7");
    assert_string_equal(unmet(&vl), "AVX-512 needs XCR0.SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM (0xe6) "
                                    "enabled by the OS; XCR0 = 0x7");
    assert_null(unmet(&ymm));

    machine(&dump_intel_sapphire_rapids_806f8, 0x3); /* not even AVX: each gate names its bits */
    assert_string_equal(unmet(&zmm), "AVX-512 needs XCR0.SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM (0xe6) "
                                     "enabled by the OS; XCR0 = 0x3");
    assert_string_equal(unmet(&ymm), "AVX needs XCR0.SSE|AVX enabled by the OS; XCR0 = 0x3");

    machine(&dump_amd_zen2_matisse_870f10, 0xe7); /* no AVX-512 in CPUID: said first */
    assert_string_equal(unmet(&zmm), "needs avx512f (CPUID 7.ebx bit 16), which this CPU lacks");
    assert_null(unmet(&ymm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_mode_gate),
        cmocka_unit_test(avx512_gate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
