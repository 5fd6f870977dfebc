/* Readable text (OUT_HUMAN): the lines a person reads in the serial log and
 * the hosted runner's output, for the records converted to fields: notes,
 * result rows with their counter and histogram lines, skips, the benchmark
 * list, benchmark files, the serial session's start and failed requests,
 * the Timer section (text_timing.c). The other sections' lines are still written by their writers
 * (kernel/report/) with log_text. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "record/log.h"
#include "formats.h"
#include "text.h"

static void note(const struct record *r)
{
    log_text("[%s] %s: %s\n", format_str(r, "level", ""), format_str(r, "topic", ""),
             format_str(r, "text", ""));
}

/* An entry of the benchmark list (option list). */
static void bench(const struct record *r)
{
    log_text("  %-31s %s\n", format_str(r, "name", ""), format_str(r, "desc", ""));
    if (!format_flag(r, "runnable"))
        log_text("  %-31s (cannot run here: %s)\n", "", format_str(r, "reason", ""));
}

/* What became of a benchmark file (kernel/load/). */
static void module(const struct record *r)
{
    const char *origin = format_str(r, "origin", "");
    if (!format_flag(r, "accepted")) {
        log_text("module from %s REJECTED: %s\n", origin, format_str(r, "reason", ""));
        return;
    }
    int64_t mode = 0, body = 0, init = 0;
    format_number(r, 0, "mode", &mode);
    format_number(r, 0, "body_bytes", &body);
    format_number(r, 0, "init_bytes", &init);
    log_text("module %s from %s: accepted (%u-bit, body %u bytes, init %u bytes%s)\n",
             format_str(r, "name", ""), origin, (unsigned)mode, (unsigned)body, (unsigned)init,
             format_flag(r, "replaced") ? ", replaced the earlier one"
             : format_str(r, "evicted", NULL) ? ", in the oldest one's slot" : "");
}

/* The serial session's start and a request that failed (kernel/serve/). */
static void serve(const struct record *r)
{
    if (record_is(r, "serve"))
        log_text("\n== Serial session: waiting for requests on %s ==\n", format_str(r, "input", ""));
    else
        log_text("serve: %s: %s\n", format_str(r, "request", ""), format_str(r, "reason", ""));
}

static void skip(const struct record *r)
{
    log_text("  %-31s skipped: %s\n", format_str(r, "name", ""), format_str(r, "reason", ""));
}

/* A field as text into buf; def when absent or null. */
static const char *text_of(const struct record *r, int from, const char *key, char *buf, size_t size,
                           const char *def)
{
    int i = record_find(r, from, key);
    if (i < 0 || r->field[i].kind == FIELD_NULL)
        return def;
    format_scalar(&r->field[i], buf, size);
    return buf;
}

/* "c" counted or exact, "~" estimated, " " none: the cycles' unit says which. */
static const char *cycles_mark(const struct record *r)
{
    const struct field *c = record_get(r, "cycles");
    if (!c || c->kind == FIELD_NULL)
        return " ";
    return format_cycles_exact(r) ? "c" : "~";
}

/* The per-insn column: the cost per instruction of a body of N copies of
 * one instruction (the record's per_instruction), in cycles with the cycles'
 * mark ("1.00~"), or in ticks with "t" where the result has no cycle unit;
 * "-" for any other body. Its own column, so the marks and the verdict stay
 * in theirs (issue 31). */
static const char *per_insn_text(const struct record *r, char *buf, size_t size)
{
    int pi = record_find(r, 0, "per_instruction");
    char v[24];
    if (pi < 0 || r->field[pi].kind != FIELD_OBJ_OPEN)
        return "-";
    const char *cycles = text_of(r, pi + 1, "cycles", v, sizeof v, NULL);
    if (cycles)
        ksnprintf(buf, size, "%s%s", cycles, cycles_mark(r));
    else
        ksnprintf(buf, size, "%st", text_of(r, pi + 1, "ticks", v, sizeof v, "?"));
    return buf;
}

/* The row's marks (docs/measuring.md, "Marks"); an old record without
 * them: derived from stable and trusted. */
static const char *row_marks(const struct record *r, char *buf, size_t size)
{
    const char *marks = format_str(r, "marks", NULL);
    if (marks)
        return marks;
    bool trusted = format_flag(r, "trusted"), stable = format_flag(r, "stable");
    ksnprintf(buf, size, "%s%s", trusted ? "" : "U", stable ? (trusted ? "ok" : "") : "S");
    return buf;
}

/* Columns: name, ticks, cycles, per insn, marks, expected, verdict, then
 * the bracketed notes; ns are in the record. Every row has every column
 * ("-" when empty), so the columns line up under the heading
 * (write_results_heading). */
static void row(const struct record *r)
{
    char t[24], c[24], ex[32] = "-", disagree[48] = "", on[24] = "", uarch[32], ev[24], mk[8], per[40];
    char verdict[48] = "-", kind_buf[16];
    int expect = record_find(r, 0, "expect");
    bool have_expect = expect >= 0 && r->field[expect].kind == FIELD_OBJ_OPEN;
    if (have_expect) {
        ksnprintf(ex, sizeof ex, "%s %s", text_of(r, expect + 1, "uarch", uarch, sizeof uarch, ""),
                  text_of(r, expect + 1, "cycles", ev, sizeof ev, ""));
        /* The verdict names its source in a word (LLVM, model, cited, file). */
        const char *kind = text_of(r, expect + 1, "kind", kind_buf, sizeof kind_buf, "");
        ksnprintf(verdict, sizeof verdict, kind[0] ? "%s, %s" : "%s", format_str(r, "verdict", ""), kind);
    }
    if (!format_flag(r, "methods_agree")) {
        char empty[24];
        ksnprintf(disagree, sizeof disagree, " [vs empty body: %s]",
                  text_of(r, 0, "ticks_vs_empty", empty, sizeof empty, ""));
    }
    const struct field *cpu = record_get(r, "cpu");
    if (cpu)
        ksnprintf(on, sizeof on, " [cpu %u]", (unsigned)cpu->v.u);
    const struct field *smi = record_get(r, "smi");
    log_text("  %-31s %8s %8s%s %8s %-5s %-17s %s%s%s%s%s\n", format_str(r, "name", ""),
             text_of(r, 0, "ticks", t, sizeof t, ""), text_of(r, 0, "cycles", c, sizeof c, "-"),
             cycles_mark(r), per_insn_text(r, per, sizeof per), row_marks(r, mk, sizeof mk), ex,
             verdict,
             disagree, smi && smi->kind == FIELD_U64 && smi->v.u ? " [SMI]" : "",
             format_flag(r, "freq_changed") ? " [freq changed]" : "", on);
    const char *reason = format_str(r, "reason", "");
    if (reason[0])
        log_text("  %-31s   why: %s\n", "", reason);
}

/* The counters read for the result, one line each (failed reads only in the record). */
static void events(const struct record *r)
{
    int list = record_find(r, 0, "events");
    if (list < 0)
        return;
    for (int i = list + 1; i < (int)r->n && r->field[i].kind != FIELD_ARR_CLOSE; i = record_after(r, i)) {
        char name[64], v[24];
        if (record_find(r, i + 1, "error") >= 0)
            continue;
        log_text("  %-31s   %s: %s per body\n", "", text_of(r, i + 1, "event", name, sizeof name, ""),
                 text_of(r, i + 1, "per_body", v, sizeof v, ""));
    }
}

/* One bar per bin, 40 characters for all samples in one bin. */
static void histogram(const struct record *r)
{
    int list = record_find(r, 0, "histogram");
    const struct field *samples = record_get(r, "samples");
    if (list < 0 || !samples || !samples->v.u)
        return;
    for (int i = list + 1; i < (int)r->n && r->field[i].kind != FIELD_ARR_CLOSE; i = record_after(r, i)) {
        char from[24];
        int count = record_find(r, i + 1, "count");
        uint32_t n = count < 0 ? 0 : (uint32_t)r->field[count].v.u;
        log_text("      %10s | %5u ", text_of(r, i + 1, "from", from, sizeof from, ""), (unsigned)n);
        for (uint32_t k = 0; k < n * 40 / (uint32_t)samples->v.u; k++)
            log_text("#");
        log_text("\n");
    }
}

static void text_record(const struct record *r)
{
    if (record_is(r, "note")) {
        note(r);
    } else if (record_is(r, "skip")) {
        skip(r);
    } else if (record_is(r, "bench")) {
        bench(r);
    } else if (record_is(r, "module")) {
        module(r);
    } else if (record_is(r, "serve") || record_is(r, "error")) {
        serve(r);
    } else if (record_is(r, "result")) {
        row(r);
        events(r);
        histogram(r);
    } else if (!text_sample(r)) {
        text_timing(r);
    }
}

const struct format format_text = {
    .name = "text",
    .by_default = true,
    .record = text_record,
};
