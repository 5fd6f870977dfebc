/* The MSR sweep against simulated MSR files: exactly the MSRs that read
 * without a fault are reported (as runs, with their non-zero values), the
 * lists are capped with a count of the rest, a refusing platform stops the
 * scan at its first read, a CPU without RDMSR is not read at all, and no
 * write is ever issued. The microcode revision (cpu/microcode.h), the cpu
 * room's other MSR read: Intel writes 0 to MSR 0x8B, executes CPUID leaf 1,
 * then reads bits 63:32; AMD reads bits 31:0 and writes nothing; a fault or
 * a refusal gives no revision with the reason and the fault; CPUs without
 * MSRs, P5 and K7 are not touched; the cpu record carries the number or null
 * with the reason. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cpu/microcode.h"
#include "cpu/msrscan.h"
#include "platform/fault.h"
#include "platform/platform.h"
#include "record/log.h"
#include "report/write.h"
#include "support/capture.h"
#include "support/msr_sim.h"

#define GP FAULT_CODE(VEC_GP)

static struct msrscan scan; /* large: not on the stack */

static void assert_run(const struct msrscan_range *r, unsigned i, uint32_t first, uint32_t last)
{
    assert_true(i < r->nruns);
    assert_int_equal(r->runs[i].first, first);
    assert_int_equal(r->runs[i].last, last);
}

static void assert_value(const struct msrscan_range *r, unsigned i, uint32_t msr, uint64_t value)
{
    assert_true(i < r->nvalues);
    assert_int_equal(r->values[i].msr, msr);
    assert_int_equal(r->values[i].value, value);
}

/* An AMD file with the core counters and PerfMonV2's global control: 21
 * MSRs in the scanned ranges, everything else #GP. */
static void amd_file(struct msr_sim *s)
{
    sim_init_amd(s, true);
    s->version = 2;
    assert_true(sim_set(s, 0xC0010000u, 0x430076));   /* PerfEvtSel0 = CtlCore0 */
    assert_true(sim_set(s, 0xC0010004u, 0x1234));     /* PerfCtr0 = CtrCore0 */
    assert_true(sim_set(s, 0xC0000301u, 0x3f));       /* PerfCntrGlobalCtl */
}

static void test_exactly_the_present_msrs(void **state)
{
    (void)state;
    struct msr_sim s;
    amd_file(&s);
    msrscan_all(sim_ops(&s), NULL, &scan);

    assert_int_equal(scan.status, MSRSCAN_SCANNED);
    assert_null(scan.reason);
    assert_int_equal(scan.nranges, 3);
    assert_int_equal(msrscan_total_read(&scan), 3 * 8192);
    assert_int_equal(msrscan_total_present(&scan), 21);
    assert_int_equal(msrscan_total_faults(&scan), 3 * 8192 - 21);
    assert_int_equal(scan.fault_vectors, 1u << VEC_GP);

    const struct msrscan_range *r = &scan.range[0];
    assert_int_equal(r->first, 0);
    assert_int_equal(r->last, 0x1fff);
    assert_int_equal(r->read, 8192);
    assert_int_equal(r->present, 0);
    assert_int_equal(r->faults, 8192);
    assert_int_equal(r->nruns, 0);
    assert_int_equal(r->nvalues, 0);

    r = &scan.range[1];
    assert_int_equal(r->first, 0xC0000000u);
    assert_int_equal(r->last, 0xC0001FFFu);
    assert_int_equal(r->present, 1);
    assert_int_equal(r->zero, 0);
    assert_int_equal(r->nruns, 1);
    assert_run(r, 0, 0xC0000301u, 0xC0000301u);
    assert_int_equal(r->nvalues, 1);
    assert_value(r, 0, 0xC0000301u, 0x3f);

    r = &scan.range[2];
    assert_int_equal(r->first, 0xC0010000u);
    assert_int_equal(r->last, 0xC0011FFFu);
    assert_int_equal(r->read, 8192);
    assert_int_equal(r->present, 20);
    assert_int_equal(r->faults, 8192 - 20);
    assert_int_equal(r->zero, 16);
    assert_int_equal(r->nruns, 2);
    assert_run(r, 0, 0xC0010000u, 0xC0010007u);
    assert_run(r, 1, 0xC0010200u, 0xC001020Bu);
    assert_int_equal(r->runs_more, 0);
    /* The legacy and core addresses of counter 0 are one register. */
    assert_int_equal(r->nvalues, 4);
    assert_value(r, 0, 0xC0010000u, 0x430076);
    assert_value(r, 1, 0xC0010004u, 0x1234);
    assert_value(r, 2, 0xC0010200u, 0x430076);
    assert_value(r, 3, 0xC0010201u, 0x1234);
    assert_int_equal(r->values_more, 0);

    /* Reads only, each exactly once. */
    assert_int_equal(s.writes, 0);
    assert_int_equal(s.reads, 3 * 8192);
    uint64_t v;
    assert_true(sim_get(&s, 0xC0010004u, &v));
    assert_int_equal(v, 0x1234);
}

/* QEMU's TCG: the counters exist but read 0. Present, listed as runs, no values. */
static void test_zero_reads_are_present(void **state)
{
    (void)state;
    struct msr_sim s;
    sim_init_p6(&s);
    s.mode = SIM_DEAD;
    msrscan_all(sim_ops(&s), NULL, &scan);
    const struct msrscan_range *r = &scan.range[0];
    assert_int_equal(scan.status, MSRSCAN_SCANNED);
    assert_int_equal(r->present, 4);
    assert_int_equal(r->zero, 4);
    assert_int_equal(r->nruns, 2);
    assert_run(r, 0, 0xC1, 0xC2);
    assert_run(r, 1, 0x186, 0x187);
    assert_int_equal(r->nvalues, 0);
    assert_int_equal(scan.range[1].present, 0);
    assert_int_equal(scan.range[2].present, 0);
    assert_int_equal(s.writes, 0);
}

/* A file of the test's own making: present where `present` says, value msr | 1. */
struct fake {
    bool (*present)(uint32_t msr);
    int refuse;                 /* nonzero: every read returns this code */
    unsigned reads, writes;
    struct msr_ops ops;
};

static int fake_read(void *ctx, uint32_t msr, uint64_t *v)
{
    struct fake *f = ctx;
    f->reads++;
    *v = 0;
    if (f->refuse)
        return f->refuse;
    if (!f->present(msr))
        return GP;
    *v = (uint64_t)msr | 1 | (1ull << 40);
    return 0;
}

static int fake_write(void *ctx, uint32_t msr, uint64_t v)
{
    struct fake *f = ctx;
    (void)msr;
    (void)v;
    f->writes++;
    return GP;
}

static void fake_init(struct fake *f, bool (*present)(uint32_t))
{
    memset(f, 0, sizeof *f);
    f->present = present;
    f->ops = (struct msr_ops){ fake_read, fake_write, f };
}

/* Every even index below 256, then 1000..1010: 128 single runs fill the
 * list; the long run after them is counted, not listed, and does not
 * stretch the last listed one. */
static bool even_then_run(uint32_t msr)
{
    return (msr < 256 && msr % 2 == 0) || (msr >= 1000 && msr <= 1010);
}

static void test_lists_are_capped(void **state)
{
    (void)state;
    struct fake f;
    fake_init(&f, even_then_run);
    msrscan_all(&f.ops, NULL, &scan);
    const struct msrscan_range *r = &scan.range[0];
    assert_int_equal(r->present, 128 + 11);
    assert_int_equal(r->nruns, MSRSCAN_RUNS_MAX);
    assert_run(r, 0, 0, 0);
    assert_run(r, 127, 254, 254);
    assert_int_equal(r->runs_more, 1);
    assert_int_equal(r->nvalues, MSRSCAN_VALUES_MAX);
    assert_value(r, 127, 254, 255 | (1ull << 40));
    assert_int_equal(r->values_more, 11);
    assert_int_equal(f.writes, 0);
    assert_int_equal(f.reads, 3 * 8192);
}

static bool even(uint32_t msr)
{
    return msr % 2 == 0;
}

/* Every list full in every range: the largest record there is, still one
 * JSON line (longer than the log's line buffer) that names what it left out. */
static void test_largest_record(void **state)
{
    (void)state;
    struct fake f;
    fake_init(&f, even);
    msrscan_all(&f.ops, NULL, &scan);
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(scan.range[i].nruns, MSRSCAN_RUNS_MAX);
        assert_int_equal(scan.range[i].runs_more, 4096 - MSRSCAN_RUNS_MAX);
        assert_int_equal(scan.range[i].values_more, 4096 - MSRSCAN_VALUES_MAX);
    }
    capture_reset();
    log_reset();
    write_msrscan(&scan);
    const char *m = capture_machine();
    size_t len = strlen(m);
    assert_true(len > 16384 && len < 40000);
    assert_ptr_equal(strchr(m, '\n'), m + len - 1);
    assert_null(strstr(m, "[\"0xc0011ffe\",\"0xc0011ffe\"]"));   /* beyond the cap: not listed */
    assert_non_null(strstr(m, "[\"0xc00100fe\",\"0xc00100fe\"]],\"runs_more\":3968,"));
    assert_non_null(strstr(m, "\"0xc00100fe\":\"0x100c00100ff\"},\"values_more\":3968}]}\n"));
    assert_non_null(strstr(capture_human(), " (3968 more runs)\n"));
    assert_non_null(strstr(capture_human(), " (3968 more)\n"));
    assert_int_equal(f.writes, 0);
}

static bool nothing(uint32_t msr)
{
    (void)msr;
    return false;
}

static void test_refused_stops_at_the_first_read(void **state)
{
    (void)state;
    struct fake f;
    fake_init(&f, nothing);
    f.refuse = MSR_ERR_NOT_RING0;
    msrscan_all(&f.ops, NULL, &scan);
    assert_int_equal(scan.status, MSRSCAN_REFUSED);
    assert_string_equal(scan.reason, "the platform refuses MSR access outside ring 0");
    assert_int_equal(scan.refusal, MSR_ERR_NOT_RING0);
    assert_int_equal(scan.refused_msr, 0);
    assert_int_equal(msrscan_total_read(&scan), 0);
    assert_int_equal(f.reads, 1);
    assert_int_equal(f.writes, 0);
    /* A further range is not read either. */
    assert_false(msrscan_range(&f.ops, &scan, 1));
    assert_int_equal(f.reads, 1);
}

static void test_no_rdmsr_reads_nothing(void **state)
{
    (void)state;
    struct cpu_info c;
    memset(&c, 0, sizeof c);
    c.generation = CPU_GEN_486_NO_CPUID;
    assert_string_equal(msrscan_unavailable(&c), "no CPUID, so no RDMSR (a 486 or older)");
    c.generation = CPU_GEN_CPUID;
    c.features[FW_1_EDX] = 1u << 0; /* FPU only: QEMU's -cpu 486 */
    const char *why = msrscan_unavailable(&c);
    assert_string_equal(why, "CPUID.1:EDX.MSR is clear: this CPU has no RDMSR");
    c.features[FW_1_EDX] |= 1u << 5;
    assert_null(msrscan_unavailable(&c));

    struct fake f;
    fake_init(&f, nothing);
    msrscan_all(&f.ops, why, &scan);
    assert_int_equal(scan.status, MSRSCAN_SKIPPED);
    assert_string_equal(scan.reason, why);
    assert_int_equal(f.reads, 0);
    assert_int_equal(msrscan_total_read(&scan), 0);
}

/* The record of the AMD file, and the refusal through the test platform's
 * own MSR path (which refuses like the hosted runner). */
static void test_records(void **state)
{
    (void)state;
    struct msr_sim s;
    amd_file(&s);
    msrscan_all(sim_ops(&s), NULL, &scan);
    capture_reset();
    log_reset();
    write_msrscan(&scan);
    const char *m = capture_machine();
    assert_non_null(strstr(m, "{\"type\":\"msrscan\",\"status\":\"scanned\",\"read\":24576,\"present\":21,"
                              "\"faults\":24555,\"fault_vectors\":[\"#GP\"],\"ranges\":[{\"first\":\"0x0\","));
    assert_non_null(strstr(m, "{\"first\":\"0xc0000000\",\"last\":\"0xc0001fff\",\"read\":8192,\"present\":1,"
                              "\"zero\":0,\"faults\":8191,\"runs\":[[\"0xc0000301\",\"0xc0000301\"]],"
                              "\"runs_more\":0,\"values\":{\"0xc0000301\":\"0x3f\"},\"values_more\":0}"));
    assert_non_null(strstr(m, "\"runs\":[[\"0xc0010000\",\"0xc0010007\"],[\"0xc0010200\",\"0xc001020b\"]]"));
    assert_non_null(strstr(m, "\"values\":{\"0xc0010000\":\"0x430076\",\"0xc0010004\":\"0x1234\","
                              "\"0xc0010200\":\"0x430076\",\"0xc0010201\":\"0x1234\"}"));
    const char *nl = strchr(m, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0');
    assert_non_null(strstr(capture_human(), "    0xc0010000-0xc0010007 0xc0010200-0xc001020b\n"));

    msrscan_all(platform->msr, NULL, &scan);
    capture_reset();
    log_reset();
    write_msrscan(&scan);
    assert_string_equal(capture_machine(),
                        "{\"type\":\"msrscan\",\"status\":\"refused\",\"reason\":\"the platform refuses MSR access "
                        "outside ring 0\",\"refusal\":\"0x200\",\"refused_msr\":\"0x0\",\"read\":0,\"present\":0,"
                        "\"faults\":0,\"fault_vectors\":[],\"ranges\":[]}\n");
    assert_string_equal(capture_human(), "  refused: the platform refuses MSR access outside ring 0 "
                                         "(code 0x200 at MSR 0x0); 0 MSRs read\n");
}

/* ---- the microcode revision ---- */

static struct msr_sim sim;       /* the microcode tests' MSR file */
static struct cpu_info info; /* large: not on the stack */

static struct cpuid_regs sim_cpuid(uint32_t leaf, uint32_t subleaf)
{
    (void)subleaf;
    if (leaf == 1)
        sim_cpuid1(&sim);
    return (struct cpuid_regs){ 0, 0, 0, 0 };
}

static const struct cpu_probe_ops ops = { .cpuid = sim_cpuid };

static const struct cpu_info *cpu_of(enum cpu_vendor v, unsigned family, bool msr)
{
    memset(&info, 0, sizeof info);
    info.generation = CPU_GEN_CPUID;
    info.vendor = v;
    info.family = family;
    if (msr)
        info.features[FW_1_EDX] = 1u << 5;
    return &info;
}

static void intel_file(uint32_t rev)
{
    sim_init_p6(&sim);
    sim.ucode = SIM_UCODE_INTEL;
    sim.ucode_rev = rev;
    sim.sign_id = 0x1234567800000000ull; /* stale: what a read without the write+CPUID sees */
}

static void intel_writes_zero_then_cpuid_then_reads(void **state)
{
    (void)state;
    struct cpu_microcode mc;
    intel_file(0xf0);
    cpu_microcode_read(cpu_of(VENDOR_INTEL, 6, true), &ops, sim_ops(&sim), &mc);
    assert_true(mc.known);
    assert_int_equal(mc.revision, 0xf0);
    assert_null(mc.reason);
    assert_int_equal(sim.ntrace, 3);
    assert_int_equal(sim.trace[0].op, 'w');
    assert_int_equal(sim.trace[0].msr, 0x8B);
    assert_int_equal(sim.trace[0].value, 0);
    assert_int_equal(sim.trace[1].op, 'c');
    assert_int_equal(sim.trace[2].op, 'r');
    assert_int_equal(sim.trace[2].msr, 0x8B);
}

static void intel_family_15_is_read_too(void **state)
{
    (void)state;
    struct cpu_microcode mc;
    intel_file(0x2e);
    cpu_microcode_read(cpu_of(VENDOR_INTEL, 15, true), &ops, sim_ops(&sim), &mc);
    assert_true(mc.known);
    assert_int_equal(mc.revision, 0x2e);
}

static void amd_reads_the_low_half_and_writes_nothing(void **state)
{
    (void)state;
    struct cpu_microcode mc;
    sim_init_amd(&sim, true);
    sim.ucode = SIM_UCODE_AMD;
    sim.ucode_rev = 0x0830107a;
    cpu_microcode_read(cpu_of(VENDOR_AMD, 0x17, true), &ops, sim_ops(&sim), &mc);
    assert_true(mc.known);
    assert_int_equal(mc.revision, 0x0830107a);
    assert_int_equal(sim.writes, 0);
    assert_int_equal(sim.ntrace, 1);
    assert_int_equal(sim.trace[0].op, 'r');
}

static void a_fault_gives_no_revision(void **state)
{
    (void)state;
    struct cpu_microcode mc;
    sim_init_p6(&sim); /* no MSR 0x8B: #GP */
    cpu_microcode_read(cpu_of(VENDOR_INTEL, 6, true), &ops, sim_ops(&sim), &mc);
    assert_false(mc.known);
    assert_int_equal(mc.fault, FAULT_CODE(VEC_GP));
    assert_int_equal(mc.fault_msr, 0x8B);
    assert_string_equal(mc.reason, "the MSR access faulted");
    assert_int_equal(sim.ntrace, 1); /* the write faulted: no CPUID, no read */

    sim_init_amd(&sim, true);
    cpu_microcode_read(cpu_of(VENDOR_AMD, 0x10, true), &ops, sim_ops(&sim), &mc);
    assert_false(mc.known);
    assert_int_equal(mc.fault, FAULT_CODE(VEC_GP));
}

static int refuse(void *ctx, uint32_t msr, uint64_t *v)
{
    (void)ctx, (void)msr, (void)v;
    return MSR_ERR_NOT_RING0;
}
static int refuse_w(void *ctx, uint32_t msr, uint64_t v)
{
    (void)ctx, (void)msr, (void)v;
    return MSR_ERR_NOT_RING0;
}

static void a_refusal_says_so(void **state)
{
    (void)state;
    struct cpu_microcode mc;
    const struct msr_ops refusing = { refuse, refuse_w, NULL };
    cpu_microcode_read(cpu_of(VENDOR_INTEL, 6, true), &ops, &refusing, &mc);
    assert_false(mc.known);
    assert_int_equal(mc.fault, MSR_ERR_NOT_RING0);
    assert_string_equal(mc.reason, "the platform refuses MSR access outside ring 0");
}

static void cpus_without_the_msr_are_not_touched(void **state)
{
    (void)state;
    struct cpu_microcode mc;
    const struct { enum cpu_vendor v; unsigned family; bool msr; } cases[] = {
        { VENDOR_INTEL, 5, true },   /* P5: no IA32_BIOS_SIGN_ID */
        { VENDOR_INTEL, 6, false },  /* CPUID says no MSRs */
        { VENDOR_AMD, 6, true },     /* K7 */
        { VENDOR_CYRIX, 6, true },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        intel_file(1);
        cpu_microcode_read(cpu_of(cases[i].v, cases[i].family, cases[i].msr), &ops, sim_ops(&sim), &mc);
        assert_false(mc.known);
        assert_non_null(mc.reason);
        assert_int_equal(mc.fault, 0);
        assert_int_equal(sim.ntrace, 0);
    }
    info.generation = CPU_GEN_486_NO_CPUID;
    cpu_microcode_read(&info, &ops, sim_ops(&sim), &mc);
    assert_false(mc.known);
    assert_string_equal(mc.reason, "no CPUID instruction");
}

static void the_cpu_record_carries_it(void **state)
{
    (void)state;
    struct cpu_microcode mc = { .known = true, .revision = 0xf0 };
    log_reset();
    capture_reset();
    write_cpu(cpu_of(VENDOR_INTEL, 6, true), &mc, NULL);
    assert_non_null(strstr(capture_machine(), "\"microcode\":240,"));
    assert_non_null(strstr(capture_human(), "  microcode: revision 0xf0\n"));

    mc = (struct cpu_microcode){ .reason = "the MSR access faulted", .fault = FAULT_CODE(VEC_GP),
                                 .fault_msr = 0x8B };
    log_reset();
    capture_reset();
    write_cpu(&info, &mc, NULL);
    assert_non_null(strstr(capture_machine(), "\"microcode\":null,\"microcode_reason\":"
                                              "\"the MSR access faulted\",\"microcode_fault\":\"0x10d\","
                                              "\"microcode_fault_msr\":\"0x8b\","));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exactly_the_present_msrs),
        cmocka_unit_test(test_zero_reads_are_present),
        cmocka_unit_test(test_lists_are_capped),
        cmocka_unit_test(test_largest_record),
        cmocka_unit_test(test_refused_stops_at_the_first_read),
        cmocka_unit_test(test_no_rdmsr_reads_nothing),
        cmocka_unit_test(test_records),
        cmocka_unit_test(intel_writes_zero_then_cpuid_then_reads),
        cmocka_unit_test(intel_family_15_is_read_too),
        cmocka_unit_test(amd_reads_the_low_half_and_writes_nothing),
        cmocka_unit_test(a_fault_gives_no_revision),
        cmocka_unit_test(a_refusal_says_so),
        cmocka_unit_test(cpus_without_the_msr_are_not_touched),
        cmocka_unit_test(the_cpu_record_carries_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
