/* The MSR sweep (option msrscan): a readable section and one "msrscan"
 * record. Present MSRs are written as runs of consecutive indices, values
 * only where they are not zero (QEMU's TCG reads every unknown MSR as 0), so
 * the log stays small; both lists say how many more there were. */
#include "cpu/msrscan.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform/fault.h"
#include "record/log.h"
#include "write.h"

#define LINE_WIDTH 76

void write_msrscan_heading(void)
{
    log_text("\n== MSR scan (reads only) ==\n");
}

void write_msrscan_progress(const struct msrscan_range *r)
{
    log_text("  reading 0x%08x-0x%08x (%u MSRs) ...\n", (unsigned)r->first, (unsigned)r->last,
             (unsigned)(r->last - r->first + 1));
}

/* ---- readable ---- */

static void text_flush(char *line, size_t *len)
{
    if (*len)
        log_text("    %s\n", line);
    *len = 0;
    line[0] = '\0';
}

static void text_item(char *line, size_t *len, const char *item)
{
    size_t n = kstrlen(item);
    if (*len && *len + 1 + n > LINE_WIDTH)
        text_flush(line, len);
    if (*len)
        line[(*len)++] = ' ';
    kstrlcpy(line + *len, item, LINE_WIDTH + 40 - *len);
    *len += n;
}

static void run_text(char *buf, size_t size, const struct msrscan_run *run)
{
    if (run->first == run->last)
        ksnprintf(buf, size, "0x%x", (unsigned)run->first);
    else
        ksnprintf(buf, size, "0x%x-0x%x", (unsigned)run->first, (unsigned)run->last);
}

static void text_range(const struct msrscan_range *r)
{
    char line[LINE_WIDTH + 40], item[48];
    size_t len = 0;
    line[0] = '\0';
    log_text("  0x%08x-0x%08x: %u read, %u present (%u read as 0), %u faulted\n", (unsigned)r->first,
             (unsigned)r->last, (unsigned)r->read, (unsigned)r->present, (unsigned)r->zero,
             (unsigned)r->faults);
    if (r->nruns)
        log_text("   present:\n");
    for (unsigned i = 0; i < r->nruns; i++) {
        run_text(item, sizeof item, &r->runs[i]);
        text_item(line, &len, item);
    }
    if (r->runs_more) {
        ksnprintf(item, sizeof item, "(%u more runs)", (unsigned)r->runs_more);
        text_item(line, &len, item);
    }
    text_flush(line, &len);
    if (r->nvalues)
        log_text("   not zero:\n");
    for (unsigned i = 0; i < r->nvalues; i++) {
        ksnprintf(item, sizeof item, "0x%x=0x%llx", (unsigned)r->values[i].msr,
                  (unsigned long long)r->values[i].value);
        text_item(line, &len, item);
    }
    if (r->values_more) {
        ksnprintf(item, sizeof item, "(%u more)", (unsigned)r->values_more);
        text_item(line, &len, item);
    }
    text_flush(line, &len);
}

static void text_scan(const struct msrscan *s)
{
    if (s->status == MSRSCAN_SKIPPED) {
        log_text("  skipped: %s\n", s->reason);
        return;
    }
    if (s->status == MSRSCAN_REFUSED) {
        log_text("  refused: %s (code 0x%x at MSR 0x%x); %u MSRs read\n", s->reason, (unsigned)s->refusal,
                 (unsigned)s->refused_msr, (unsigned)msrscan_total_read(s));
        return;
    }
    for (unsigned i = 0; i < s->nranges; i++)
        text_range(&s->range[i]);
    log_text("  total: %u read, %u present, %u faulted\n", (unsigned)msrscan_total_read(s),
             (unsigned)msrscan_total_present(s), (unsigned)msrscan_total_faults(s));
}

/* ---- the record ---- */

static void rec_range(const struct msrscan_range *r)
{
    char key[16];
    rec_obj_open(NULL);
    rec_hex("first", r->first);
    rec_hex("last", r->last);
    rec_u64("read", r->read);
    rec_u64("present", r->present);
    rec_u64("zero", r->zero);
    rec_u64("faults", r->faults);
    rec_arr_open("runs");
    for (unsigned i = 0; i < r->nruns; i++) {
        rec_arr_open(NULL);
        rec_hex(NULL, r->runs[i].first);
        rec_hex(NULL, r->runs[i].last);
        rec_arr_close();
    }
    rec_arr_close();
    rec_u64("runs_more", r->runs_more);
    rec_obj_open("values");
    for (unsigned i = 0; i < r->nvalues; i++) {
        ksnprintf(key, sizeof key, "0x%x", (unsigned)r->values[i].msr);
        rec_hex(key, r->values[i].value);
    }
    rec_obj_close();
    rec_u64("values_more", r->values_more);
    rec_obj_close();
}

void write_msrscan(const struct msrscan *s)
{
    text_scan(s);
    rec_open("msrscan");
    rec_str("status", msrscan_status_name(s->status));
    if (s->reason)
        rec_str("reason", s->reason);
    if (s->status == MSRSCAN_REFUSED) {
        rec_hex("refusal", (uint64_t)(unsigned)s->refusal);
        rec_hex("refused_msr", s->refused_msr);
    }
    rec_u64("read", msrscan_total_read(s));
    rec_u64("present", msrscan_total_present(s));
    rec_u64("faults", msrscan_total_faults(s));
    rec_arr_open("fault_vectors");
    for (unsigned v = 0; v < 32; v++)
        if ((s->fault_vectors >> v) & 1)
            rec_str(NULL, fault_name(v));
    rec_arr_close();
    rec_arr_open("ranges");
    if (s->status == MSRSCAN_SCANNED)
        for (unsigned i = 0; i < s->nranges; i++)
            rec_range(&s->range[i]);
    rec_arr_close();
    rec_close();
}
