/* The self-test of the hosted runner (option selftest): the faults the
 * kernel promises to survive, provoked in ring 3, must come back through the
 * signal handlers as the same vectors; a privileged instruction must fault
 * (#GP) instead of running; and MSR access must be refused, not attempted. */
#include <stdbool.h>
#include <stdint.h>

#include "fault.h"
#include "guard.h"
#include "hosted.h"
#include "msr.h"
#include "report.h"
#include "status.h"

static void divide_by_zero(void *arg)
{
    (void)arg;
    __asm__ volatile("xorl %%ecx, %%ecx\n divl %%ecx" : : "a"(1), "d"(0) : "ecx");
}

static void invalid_opcode(void *arg)
{
    (void)arg;
    __asm__ volatile("ud2");
}

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

struct provoked {
    const char *name;
    void (*fn)(void *);
    unsigned vector;
};

static const struct provoked cases[] = {
    { "divide by zero", divide_by_zero, VEC_DE },
    { "invalid opcode (ud2)", invalid_opcode, VEC_UD },
    { "privileged instruction (cli)", privileged_cli, VEC_GP },
    { "privileged instruction (rdmsr)", privileged_rdmsr, VEC_GP },
};

#define NONEXISTENT_MSR 0x0badc0deu

int hosted_selftest(void)
{
    int status = STATUS_OK;
    report_text("self-test: provoking faults in ring 3; each must be caught and reported\n");
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fault_info info;
        int code = guard_run(cases[i].fn, 0, &info);
        bool ok = FAULT_IS(code) && FAULT_VECTOR(code) == cases[i].vector;
        if (code)
            fault_report(cases[i].name, &info);
        rec_open("selftest");
        rec_str("case", cases[i].name);
        rec_str("expected", fault_name(cases[i].vector));
        rec_str("seen", code ? fault_name(FAULT_VECTOR(code)) : "none");
        rec_bool("ok", ok);
        rec_close();
        report_text("self-test: %-36s expected %s, seen %s: %s\n", cases[i].name,
                    fault_name(cases[i].vector), code ? fault_name(FAULT_VECTOR(code)) : "none",
                    ok ? "ok" : "FAILED");
        if (!ok)
            status = STATUS_SELFTEST_FAIL;
    }

    /* The platform's MSR access must refuse without executing anything. */
    uint64_t value = 1;
    int err = msr_read(platform_msr, NONEXISTENT_MSR, &value);
    bool ok = err == MSR_ERR_NOT_RING0;
    rec_open("selftest");
    rec_str("case", "platform msr read");
    rec_hex("msr", NONEXISTENT_MSR);
    rec_str("expected", "refused (not ring 0)");
    rec_str("seen", ok ? "refused (not ring 0)" : err ? "another error" : "a value");
    rec_bool("ok", ok);
    rec_close();
    report_text("self-test: platform MSR read 0x%08x         %s\n", NONEXISTENT_MSR,
                ok ? "refused (ring 3): ok" : "NOT refused: FAILED");
    if (!ok)
        status = STATUS_SELFTEST_FAIL;
    return status;
}
