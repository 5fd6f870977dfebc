/* Running a table pack from the boot medium (table_pack.h). Each file goes
 * through the loader's checks like any module (a rejection is a module
 * record and a warning, the next file runs); an accepted one replaces the
 * slot of its name and is measured at once, so the 32 slots never run out. */
#include "table_pack.h"
#include "load/loaded.h"
#include "lib/kstring.h"
#include "platform/status.h"
#include "progress.h"
#include "record/log.h"
#include "report/write.h"
#include "suite.h"

#define PACK_HEADER 12u

static const uint8_t *pack;
static size_t pack_len;

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

bool table_pack_take(const uint8_t *data, size_t len)
{
    if (len < PACK_HEADER || kmemcmp(data, "CKTP", 4) != 0)
        return false;
    if (le32(data + 4) != 1) {
        log_note("warn", "table", "table pack version %u; this kernel reads version 1: not run",
                 (unsigned)le32(data + 4));
        return true;
    }
    pack = data;
    pack_len = len;
    log_note("info", "table", "table pack of %u benchmark files (%u bytes): measured instead of the suite",
             (unsigned)le32(data + 8), (unsigned)len);
    return true;
}

bool table_pack_present(void) { return pack != NULL; }

int table_pack_run(const struct platform *p)
{
    int status = STATUS_OK;
    unsigned n = le32(pack + 8), done = 0;
    size_t at = PACK_HEADER;
    progress_start(p, n);
    for (unsigned i = 0; i < n; i++) {
        if (pack_len - at < 12) {
            log_note("error", "table", "table pack cut short: file %u of %u missing", i + 1, n);
            status = status_worst(status, STATUS_ERRORS);
            break;
        }
        uint32_t len = le32(pack + at + 8);
        if (len < 12 || len > pack_len - at) {
            log_note("error", "table", "table pack: file %u says %u bytes; %u remain", i + 1,
                     (unsigned)len, (unsigned)(pack_len - at));
            status = status_worst(status, STATUS_ERRORS);
            break;
        }
        static struct module_verdict v;
        loaded_add(pack + at, len, "table pack", &v);
        at += len;
        if (!v.accepted) {
            write_module(&v);
            log_note("warn", "table", "table pack file %u rejected: %s", i + 1, v.why);
            continue;
        }
        const struct bench *b = loaded_find(v.name);
        if (!b)
            continue;
        progress_next(b->name);
        status = status_worst(status, suite_run_one(p, b, NULL));
        done++;
    }
    progress_end();
    log_note("info", "table", "table pack: %u of %u files measured", done, n);
    return status;
}
