/* One run, in the order of DESIGN.md: identify, (later: counters, timer,
 * measure, benchmarks), report. Every phase runs under a guard, so a fault
 * is reported with where it happened and the log is still closed properly. */
#include "cpu/cpu.h"
#include "guarded_step.h"
#include "lib/option.h"
#include "platform/platform.h"
#include "report/log.h"
#include "status.h"
#include "suite.h"

OPTION_BOOL(help, "help", false, "print the options and their values first");
OPTION_BOOL(selftest, "selftest", false,
            "provoke #DE, #UD, #GP and a nonexistent MSR read; check each is caught");

static void call(void *fn) { ((void (*)(void))fn)(); }

/* A kernel phase: a fault is reported and the run goes on without it. */
static int phase(const struct platform *p, const char *name, void (*fn)(void))
{
    return fn ? guarded_step(p, name, call, (void *)fn, STATUS_KERNEL_FAULT) : STATUS_OK;
}

int run_suite(const struct platform *p)
{
    int status = STATUS_OK;
    log_begin(p->name, p->cmdline);
    log_text("cyclekit: x86 benchmark %s, platform %s (log schema %d)\n",
                p->ring0 ? "kernel" : "runner", p->name, LOG_SCHEMA);
    if (p->describe)
        p->describe();
    options_report_problems();
    if (opt_help)
        options_print_help();

    status = status_worst(status, phase(p, "cpu identification", cpu_probe));
    status = status_worst(status, phase(p, "cpu setup", p->after_cpu_probe));
    status = status_worst(status, phase(p, "cpu report", cpu_report));

    if (opt_selftest && p->selftest)
        status = status_worst(status, p->selftest());

    status = status_worst(status, suite_run(p));

    if (status == STATUS_OK && log_errors())
        status = STATUS_ERRORS;
    log_text("cyclekit: run complete: %u records and the end record, status %d\n",
                log_records(), status);
    return log_end(status);
}
