/* The self-test's lines and "selftest" records. */
#include "log.h"
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
