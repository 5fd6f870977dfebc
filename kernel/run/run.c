/* One run, phase by phase (docs/architecture.md, "One run"): the begin
 * record, the platform, identification, the self-test when asked, then the
 * suite; the end record. Every phase runs under the guard, so a fault is
 * reported with where it happened and the log is still closed properly.
 * The rooms to the left compute; this room calls them in order and hands
 * what they found to the writers. */
#include "cpu/cpu.h"
#include "cpu/microcode.h"
#include "cpu/msrscan.h"
#include "between_cores.h"
#include "guarded_step.h"
#include "options/option.h"
#include "options/settings.h"
#include "platform/platform.h"
#include "platform/status.h"
#include "record/log.h"
#include "report/write.h"
#include "boot_modules.h"
#include "table_pack.h"
#include "run.h"
#include "selftest.h"
#include "suite.h"
#include "topology_phase.h"

static const struct platform *here;
static const struct platform_info *described; /* NULL: the platform describes nothing */

static void call(void *fn) { ((void (*)(void))fn)(); }

/* A kernel phase: a fault is reported and the run goes on without it. */
static int phase(const struct platform *p, const char *name, void (*fn)(void))
{
    if (!fn)
        return STATUS_OK;
    write_step(name);
    return guarded_step(p, name, call, (void *)fn, STATUS_KERNEL_FAULT);
}

static void cpu_setup(void)
{
    static char said[160];
    said[0] = '\0';
    if (here->after_cpu_probe)
        here->after_cpu_probe(said, sizeof said);
    write_platform_said(said);
}

/* The microcode revision needs the identified CPU (vendor, family, MSRs)
 * and the MSR path; a refusal or a fault is part of what it reports. */
static void cpu_record(void)
{
    static struct cpu_microcode microcode;
    cpu_microcode_read(cpu, here->cpu_ops, here->msr, &microcode);
    cpu_xstate_probe(); /* after the setup, which may have enabled XSAVE */
    write_cpu(cpu, &microcode, cpu_xstate);
}

/* list and help describe the machine and the benchmarks, and measure
 * nothing: no PMU proof, no timer calibration or trust check, no MSR sweep,
 * no measurement between cores; the CPU in one line. */
static bool describing(void)
{
    return settings.list || settings.help;
}

static void cpu_brief(void)
{
    cpu_xstate_probe();
    write_cpu_brief(cpu, NULL, cpu_xstate);
}

static void smp_measure(void)
{
    between_cores(here);
}

static void topology(void)
{
    static const struct platform_info none;
    topology_phase(here, described ? described : &none);
}

/* The first TSC read, for the run id; a fault (CR4.TSD set in ring 3)
 * only means there is none. Nothing is written before the begin record. */
static struct {
    bool have;
    uint64_t tsc;
} first;

static void read_first_tsc(void *arg)
{
    (void)arg;
    first.have = cpu_first_tsc(here->cpu_ops, &first.tsc);
}

/* The MSR sweep: a line before each range (it reads 24576 MSRs, each a trap
 * under a hypervisor), then the section and record. Outside ring 0 the first
 * read is refused at once: no progress to show, one line says so. */
static void msr_scan(void)
{
    static struct msrscan scan;
    msrscan_init(&scan, msrscan_unavailable(cpu));
    write_msrscan_heading();
    for (unsigned i = 0; i < scan.nranges && scan.status == MSRSCAN_SCANNED; i++) {
        if (here->ring0)
            write_msrscan_progress(&scan.range[i]);
        msrscan_range(here->msr, &scan, i);
    }
    write_msrscan(&scan);
}

int run_suite(const struct platform *p, const struct run_session *session)
{
    static struct platform_info info;
    int status = STATUS_OK;
    here = p;
    if (guard_run(read_first_tsc, NULL, NULL) != 0)
        first.have = false;
    log_begin(p->name, p->cmdline, first.have, first.tsc);
    write_banner(p);
    if (p->describe) {
        p->describe(&info);
        write_platform(&info);
        described = &info;
    }
    options_report_problems();
    if (settings.help)
        write_help();

    status = status_worst(status, phase(p, "cpu identification", cpu_probe));
    status = status_worst(status, phase(p, "cpu setup", p->after_cpu_probe ? cpu_setup : NULL));
    status = status_worst(status, phase(p, "cpu report", describing() ? cpu_brief : cpu_record));
    if (settings.msrscan && !describing())
        status = status_worst(status, phase(p, "msr scan", msr_scan));
    status = status_worst(status, phase(p, "topology", topology));

    status = status_worst(status, phase(p, "benchmark files", boot_modules_load));
    if (settings.selftest) {
        write_step("self-test");
        status = status_worst(status, selftest_run(p));
    }

    if (session && session->wanted(p)) {
        write_step("serve session");
        status = status_worst(status, session->run(p));
    } else if (table_pack_present()) {
        write_step("instruction table from the medium");
        status = status_worst(status, suite_serve(p, table_pack_run));
    } else if (describing()) {
        if (settings.list) {
            write_step("benchmarks");
            suite_list(p);
        }
    } else {
        write_step("benchmarks");
        status = status_worst(status, suite_run(p, settings.selftest ? selftest_in_benchmarks : NULL));
    }
    /* After a serve session only what a bench= names under smp/: a session's
     * work is its requests, and a table or a snippet must not pay for every
     * measurement between cores once it has its answer. */
    if (session && session->wanted(p) ? between_cores_named() : !describing())
        status = status_worst(status, phase(p, "between cores", smp_measure));

    if (status == STATUS_OK && log_errors())
        status = STATUS_ERRORS;
    write_run_complete(status);
    write_summary(status);
    return log_end(status);
}
