/* The ring-0 part of the self-test (option selftest; the run provokes #DE
 * and #UD itself): a #GP from a bad segment selector, and a read of an MSR
 * that does not exist through the fault-safe path. */
#include "platform/fault.h"
#include "lib/fmt.h"
#include "safe.h"
#include "selftest.h"

void ring0_general_protection(void *arg)
{
    (void)arg;
    /* GDT selector 0xff8 (index 511, TI=0) is far beyond our 3-entry GDT. */
    __asm__ volatile("movw $0x0ff8, %%ax\n movw %%ax, %%fs" : : : "eax");
}

const struct provoked_fault ring0_faults[] = {
    { "general protection (bad selector)", ring0_general_protection, VEC_GP },
    { NULL, NULL, 0 },
};

/* An MSR index in a range no x86 vendor defines. */
#define NONEXISTENT_MSR 0x0badc0deu

/* Real CPUs and KVM raise #GP here; QEMU's TCG reads unknown MSRs as 0
 * without a fault. Either is a correct survival; what matters is that the
 * read returns and says which happened. */
void ring0_msr_selftest(struct selftest_check *c)
{
    uint64_t value = 0;
    int err = rdmsr_safe(NONEXISTENT_MSR, &value);
    c->name = "rdmsr of a nonexistent MSR";
    c->expected = "#GP or a value";
    ksnprintf(c->seen, sizeof c->seen, "%s", err ? fault_name(FAULT_VECTOR(err)) : "none");
    c->ok = true;
}
