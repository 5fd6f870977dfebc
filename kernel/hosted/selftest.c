/* The ring-3 part of the self-test (option selftest; the run provokes #DE
 * and #UD itself): a privileged instruction must fault (#GP) instead of
 * running, and MSR access must be refused, not attempted. */
#include <stdbool.h>
#include <stdint.h>

#include "platform/platform.h"
#include "platform/fault.h"
#include "platform/guard.h"
#include "hosted.h"
#include "platform/msr.h"
#include "lib/kstring.h"

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

#define NONEXISTENT_MSR 0x0badc0deu

const struct provoked_fault ring3_faults[] = {
    { "privileged instruction (cli)", privileged_cli, VEC_GP },
    { "privileged instruction (rdmsr)", privileged_rdmsr, VEC_GP },
    { NULL, NULL, 0 },
};

/* The platform's MSR access must refuse without executing anything. */
void ring3_msr_selftest(struct selftest_check *c)
{
    uint64_t value = 1;
    int err = msr_read(platform->msr, NONEXISTENT_MSR, &value);
    c->name = "platform msr read";
    c->expected = "refused (not ring 0)";
    c->ok = err == MSR_ERR_NOT_RING0;
    kstrlcpy(c->seen, c->ok ? "refused (not ring 0)" : err ? "another error" : "a value", sizeof c->seen);
}
