/* The self-test of the hosted runner (option selftest): the faults the
 * kernel promises to survive, provoked in ring 3, must come back through the
 * signal handlers as the same vectors; a privileged instruction must fault
 * (#GP) instead of running; and MSR access must be refused, not attempted. */
#include <stdbool.h>
#include <stdint.h>

#include "platform/fault.h"
#include "platform/guard.h"
#include "hosted.h"
#include "platform/msr.h"
#include "report/log.h"
#include "harness/selftest_common.h"
#include "harness/status.h"

/* CLI with IOPL 0 in ring 3 is #GP(0) (SDM vol. 2A, CLI: "Protected Mode
 * Exceptions"); Linux turns it into SIGSEGV with trap number 13. */
static void privileged_cli(void *arg)
{
    (void)arg;
    __asm__ volatile("cli" ::: "memory");
}

/* RDMSR outside ring 0 is #GP(0) whatever the index (SDM vol. 2B, RDMSR). */
static void privileged_rdmsr(void *arg)
{
    (void)arg;
    __asm__ volatile("rdmsr" : : "c"(0x0badc0deu) : "eax", "edx");
}

static const struct provoked_fault ring3_cases[] = {
    { "privileged instruction (cli)", privileged_cli, VEC_GP },
    { "privileged instruction (rdmsr)", privileged_rdmsr, VEC_GP },
};

#define NONEXISTENT_MSR 0x0badc0deu

int hosted_selftest(void)
{
    log_text("self-test: provoking faults in ring 3; each must be caught and reported\n");
    int status = selftest_provoke(selftest_common_cases, selftest_common_count);
    status = status_worst(status, selftest_provoke(ring3_cases, sizeof ring3_cases / sizeof ring3_cases[0]));

    /* The platform's MSR access must refuse without executing anything. */
    uint64_t value = 1;
    int err = msr_read(platform_msr, NONEXISTENT_MSR, &value);
    bool ok = err == MSR_ERR_NOT_RING0;
    write_selftest("platform msr read", "refused (not ring 0)",
                    ok ? "refused (not ring 0)" : err ? "another error" : "a value", ok);
    if (!ok)
        status = STATUS_SELFTEST_FAIL;
    return status;
}
