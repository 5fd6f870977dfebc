/* The self-test's lines and "selftest" records. */
#include "platform/fault.h"
#include "platform/selftest.h"
#include "record/log.h"
#include "write.h"

void write_selftest_start(bool ring0)
{
    log_text("self-test: provoking faults%s; each must be caught and reported\n", ring0 ? "" : " in ring 3");
}

void write_selftest(const char *name, const char *expected, const char *seen, bool ok)
{
    rec_open("selftest");
    rec_str("case", name);
    rec_str("expected", expected);
    rec_str("seen", seen);
    rec_bool("ok", ok);
    rec_close();
    log_text("self-test: %-36s expected %s, seen %s: %s\n", name, expected, seen, ok ? "ok" : "FAILED");
}

/* A vector raised inside a benchmark body: a "selftest" record with where
 * the fault was seen in the body and whether the state came back. */
void write_selftest_bench(const struct bench_fault_seen *s)
{
    const char *expected = fault_name(s->c->vector);
    const char *seen = s->cpu_gap ? "not raised by this CPU" : s->why_not ? "not raisable here" : s->faulted ? fault_name(s->vector) : "none";
    rec_open("selftest");
    rec_str("case", s->c->name);
    rec_str("expected", expected);
    rec_str("seen", seen);
    rec_bool("ok", s->ok);
    if (VEC_IS_CPU(s->c->vector))
        rec_u64("vector", s->c->vector);
    else
        rec_null("vector");
    if (s->why_not) {
        rec_str("why_not", s->why_not);
        rec_close();
        log_text("self-test: %-36s %s: %s: %s\n", s->c->name, expected, seen, s->why_not);
        return;
    }
    rec_str("bench", s->bench);
    if (!VEC_IS_CPU(s->c->vector)) { /* found by the harness, not a CPU exception */
        rec_str("state", s->state ? s->state : "restored");
        rec_close();
        log_text("self-test: %-36s expected %s, seen %s, state %s: %s\n", s->c->name, expected, seen,
                 s->state ? s->state : "restored", s->ok ? "ok" : "FAILED");
        return;
    }
    rec_bool("trap", s->c->trap);
    rec_hex("eip", s->eip);
    rec_bool("eip_in_body", s->eip_in_body);
    rec_u64("body_offset", s->offset);
    rec_u64("expected_offset", s->expect_offset);
    rec_str("state", s->state ? s->state : "restored");
    rec_close();
    log_text("self-test: %-36s expected %s at body+%u, seen %s at EIP 0x%08x (body+%u), state %s: %s\n",
             s->c->name, expected, s->expect_offset, seen, s->eip, s->offset,
             s->state ? s->state : "restored", s->ok ? "ok" : "FAILED");
}
