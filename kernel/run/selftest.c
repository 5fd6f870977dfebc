/* The self-test (option selftest): provoke the faults the kernel promises
 * to survive, check that each comes back through the guard with the right
 * vector, then check the platform's MSR access path. #DE and #UD are
 * provoked the same way everywhere; the platform adds its own cases. */
#include "platform/platform.h"
#include "platform/guard.h"
#include "platform/status.h"
#include "report/write.h"
#include "selftest.h"

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

static const struct provoked_fault common_cases[] = {
    { "divide by zero", divide_by_zero, VEC_DE },
    { "invalid opcode (ud2)", invalid_opcode, VEC_UD },
    { NULL, NULL, 0 },
};

static int provoke(const struct provoked_fault *cases)
{
    int status = STATUS_OK;
    for (unsigned i = 0; cases && cases[i].name; i++) {
        struct fault_info info;
        int code = guard_run(cases[i].fn, 0, &info);
        bool ok = FAULT_IS(code) && FAULT_VECTOR(code) == cases[i].vector;
        if (code)
            write_fault(cases[i].name, &info);
        write_selftest(cases[i].name, fault_name(cases[i].vector),
                       code ? fault_name(FAULT_VECTOR(code)) : "none", ok);
        if (!ok)
            status = STATUS_SELFTEST_FAIL;
    }
    return status;
}

int selftest_run(const struct platform *p)
{
    write_selftest_start(p->ring0);
    int status = provoke(common_cases);
    status = status_worst(status, provoke(p->faults));
    if (p->msr_selftest) {
        struct selftest_check c = { 0 };
        p->msr_selftest(&c);
        write_selftest(c.name, c.expected, c.seen, c.ok);
        if (!c.ok)
            status = status_worst(status, STATUS_SELFTEST_FAIL);
    }
    return status;
}
