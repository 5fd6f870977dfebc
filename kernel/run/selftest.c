/* The self-test (option selftest): provoke the faults the kernel promises
 * to survive, check that each comes back through the guard with the right
 * vector, then check the platform's MSR access path. #DE and #UD are
 * provoked the same way everywhere; the platform adds its own cases. */
#include "platform/platform.h"
#include "platform/guard.h"
#include "platform/status.h"
#include "harness/bench.h"
#include "harness/bench_registry.h"
#include "harness/measure.h"
#include "suite.h"
#include "cpu/cpu.h"
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

static int check(void (*fn)(struct selftest_check *))
{
    if (!fn)
        return STATUS_OK;
    struct selftest_check c = { 0 };
    fn(&c);
    write_selftest(c.name, c.expected, c.seen, c.ok);
    return c.ok ? STATUS_OK : STATUS_SELFTEST_FAIL;
}

int selftest_run(const struct platform *p)
{
    write_selftest_start(p->ring0);
    int status = provoke(common_cases);
    status = status_worst(status, provoke(p->faults));
    status = status_worst(status, check(p->msr_selftest));
    for (unsigned i = 0; p->call64_checks && p->call64_checks[i]; i++)
        status = status_worst(status, check(p->call64_checks[i]));
    return status;
}

/* One vector inside a benchmark: measured by the suite like any benchmark,
 * under its guard; the fault must be the expected vector at the expected
 * place in the body, and the platform's after_fault must have restored the
 * state (state_check). */
static void raise_in_benchmark(const struct platform *p, const struct bench_fault *c,
                               struct bench_fault_seen *s)
{
    static char why[160];
    s->c = c;
    s->why_not = c->b ? bench_unmet(c->b, p->ring0, why, sizeof why) : c->why_not;
    if (s->why_not) {
        s->ok = true; /* a stated reason is the answer */
        return;
    }
    s->bench = c->b->name;
    struct fault_info info = { .vector = ~0u };
    suite_run_one(p, c->b, &info);
    s->faulted = info.vector != ~0u;
    if (!s->faulted) {
        if (p->after_fault) /* the body ran to its end: undo what it changed all the same */
            p->after_fault();
        if (c->tcg_gap && cpu_is_qemu_tcg(cpu)) {
            s->why_not = c->tcg_gap;
            s->cpu_gap = true;
            s->ok = true;
            return;
        }
    }
    s->vector = info.vector;
    s->eip = info.eip;
    int32_t size = bench_copy_size(c->b);
    uint32_t copies = (uint32_t)(uintptr_t)c->b->copies, end = (uint32_t)(uintptr_t)c->b->copies_end;
    s->eip_in_body = s->faulted && size > 0 && info.eip >= copies && info.eip <= end;
    s->offset = s->eip_in_body ? (info.eip - copies) % (uint32_t)size : 0;
    s->expect_offset = c->trap || size <= 0 ? 0 : (uint32_t)size - c->last_len;
    s->state = p->state_check ? p->state_check() : NULL;
    /* Where a CPU exception happened is exact; a broken contract is found
     * after the body ran, so it has no place in the body. */
    bool where_ok = !VEC_IS_CPU(c->vector) || (s->eip_in_body && s->offset == s->expect_offset);
    s->ok = s->faulted && s->vector == c->vector && where_ok && !s->state;
}

int selftest_in_benchmarks(const struct platform *p)
{
    int status = STATUS_OK;
    for (unsigned i = 0; p->bench_faults && p->bench_faults[i].name; i++) {
        struct bench_fault_seen s = { 0 };
        if (p->bench_faults[i].arm && !p->bench_faults[i].arm())
            continue;
        raise_in_benchmark(p, &p->bench_faults[i], &s);
        write_selftest_bench(&s);
        if (!s.ok)
            status = STATUS_SELFTEST_FAIL;
    }
    return status;
}
