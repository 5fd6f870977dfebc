/* The readable lines of the "sample" and "cycles" records: the body
 * annotated as perf annotate shows a function, one line per sampled offset
 * of one copy (its bytes up to the next sampled offset, its samples, its
 * share of the body's samples with the binomial standard error), then the
 * samples outside the body, the skid and how the interrupts came. The
 * kernel names no instruction (it has no disassembler): `cyclekit snippet
 * --sample` and the report print the same lines with the instructions. */
#include "stats/stats.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "record/log.h"
#include "formats.h"
#include "text.h"

static int64_t num(const struct record *r, int from, const char *key)
{
    int64_t v = 0;
    format_number(r, from, key, &v);
    return v;
}

static void percent(uint32_t k, uint32_t n)
{
    uint32_t x100 = n ? (uint32_t)(((uint64_t)k * 10000 + n / 2) / n) : 0;
    uint32_t err = stats_binomial_error_x100(k, n);
    log_text("%3u.%u %% +-%u.%u", (unsigned)(x100 / 100), (unsigned)(x100 % 100 / 10),
             (unsigned)(err / 100), (unsigned)(err % 100 / 10));
}

/* The hex of bytes [from, to) of the copy, at most 8 bytes shown. */
static void bytes_of(const char *hex, uint32_t from, uint32_t to)
{
    char buf[3 * 8 + 4];
    uint32_t k = 0;
    for (uint32_t i = from; i < to && i < from + 8 && hex[2 * i] && hex[2 * i + 1]; i++) {
        buf[k++] = hex[2 * i];
        buf[k++] = hex[2 * i + 1];
        buf[k++] = ' ';
    }
    if (to > from + 8) {
        buf[k++] = '.';
        buf[k++] = '.';
    }
    buf[k] = '\0';
    log_text("%-26s", buf);
}

static void offsets(const struct record *r, uint32_t body, uint32_t size, const char *hex)
{
    int list = record_find(r, 0, "offsets");
    if (list < 0)
        return;
    for (int i = list + 1; i < (int)r->n && r->field[i].kind != FIELD_ARR_CLOSE; i = record_after(r, i)) {
        uint32_t off = (uint32_t)num(r, i + 1, "offset"), k = (uint32_t)num(r, i + 1, "samples");
        int next = record_after(r, i);
        uint32_t to = next < (int)r->n && r->field[next].kind != FIELD_ARR_CLOSE
                          ? (uint32_t)num(r, next + 1, "offset") : size;
        log_text("    +%-3u ", (unsigned)off);
        bytes_of(hex, off, to);
        log_text(" %6u  ", (unsigned)k);
        percent(k, body);
        log_text("  ");
        for (uint32_t b = 0; body && b < k * 30 / body; b++)
            log_text("#");
        log_text("\n");
    }
}

static void sample(const struct record *r)
{
    const char *name = format_str(r, "name", ""), *event = format_str(r, "event", "");
    const char *unit = format_str(r, "unit", "events");
    const char *failed = format_str(r, "failed", NULL);
    uint64_t period = (uint64_t)num(r, 0, "period");
    if (failed) {
        log_text("  %-31s sampling (%s every %llu %s) failed: %s\n", name, event,
                 (unsigned long long)period, unit, failed);
        return;
    }
    uint32_t total = (uint32_t)num(r, 0, "samples"), body = (uint32_t)num(r, 0, "body");
    log_text("  %-31s sampled on %s every %llu %s (%s): %u samples, %u in the body\n", name, event,
             (unsigned long long)period, unit,
             format_str(r, "delivery", ""), (unsigned)total, (unsigned)body);
    log_text("    offset bytes                      samples  share of the body (+- one binomial s.e.)\n");
    offsets(r, body, (uint32_t)num(r, 0, "copy_bytes"), format_str(r, "bytes", ""));
    log_text("    outside the body: %u in the loop (JMP into the copies, DEC, JNZ), %u in the handler, "
             "%u elsewhere; %u lost (buffer full)\n", (unsigned)num(r, 0, "loop"),
             (unsigned)num(r, 0, "handler"), (unsigned)num(r, 0, "elsewhere"), (unsigned)num(r, 0, "lost"));
    const char *skid_why = format_str(r, "skid_why", NULL);
    if (skid_why)
        log_text("    skid: not measured (%s)\n", skid_why);
    else
        log_text("    skid: %d instructions, measured (a sample is charged to the instruction it "
                 "interrupted)\n", (int)num(r, 0, "skid"));
    const char *stopped = format_str(r, "stopped", NULL);
    if (stopped)
        log_text("    stopped early: %s\n", stopped);
}

static void cycles(const struct record *r)
{
    const char *name = format_str(r, "name", ""), *failed = format_str(r, "failed", NULL);
    if (failed) {
        log_text("  %-31s cycle by cycle: not run: %s\n", name, failed);
        return;
    }
    log_text("  %-31s cycle by cycle, %u cycles (%u instructions before the first copy):\n"
             "    cycle  retired  interrupted at\n", name, (unsigned)num(r, 0, "n"),
             (unsigned)num(r, 0, "base"));
    int list = record_find(r, 0, "steps");
    for (int i = list + 1; list >= 0 && i < (int)r->n && r->field[i].kind != FIELD_ARR_CLOSE;
         i = record_after(r, i)) {
        int w = record_find(r, i + 1, "where");
        const char *where = w >= 0 ? r->field[w].v.s : "none";
        log_text("    %5u  ", (unsigned)num(r, i + 1, "k"));
        if (!kstrcmp(where, "none")) {
            log_text("      -  (no interrupt within the run)\n");
            continue;
        }
        log_text("%7d  ", (int)num(r, i + 1, "retired"));
        if (!kstrcmp(where, "body"))
            log_text("copy %u, +%u\n", (unsigned)num(r, i + 1, "copy"), (unsigned)num(r, i + 1, "offset"));
        else
            log_text("%s\n", where);
    }
}

bool text_sample(const struct record *r)
{
    if (record_is(r, "sample"))
        sample(r);
    else if (record_is(r, "cycles"))
        cycles(r);
    else
        return false;
    return true;
}
