#include <stdbool.h>
#include "platform/fault.h"
#include "platform/guard.h"
#include "report/log.h"
#include "selftest_common.h"
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

const struct provoked_fault selftest_common_cases[] = {
    { "divide by zero", divide_by_zero, VEC_DE },
    { "invalid opcode (ud2)", invalid_opcode, VEC_UD },
};
const unsigned selftest_common_count = sizeof selftest_common_cases / sizeof selftest_common_cases[0];

void write_selftest(const char *name, const char *expected, const char *seen, int ok)
{
    rec_open("selftest");
    rec_str("case", name);
    rec_str("expected", expected);
    rec_str("seen", seen);
    rec_bool("ok", ok);
    rec_close();
    log_text("self-test: %-36s expected %s, seen %s: %s\n", name, expected, seen, ok ? "ok" : "FAILED");
}

int selftest_provoke(const struct provoked_fault *cases, unsigned n)
{
    int status = STATUS_OK;
    for (unsigned i = 0; i < n; i++) {
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
