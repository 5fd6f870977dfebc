/* The serial session's requests (docs/serve-protocol.md): one text line
 * each, answered by records and a closing "done" record; `load` is followed
 * by a binary frame whose length and CRC-32 the line gives. Nothing a host
 * sends can end the session except `end` (or the input closing): a broken
 * frame, a bad CRC, an unknown request, a body that faults or runs past the
 * watchdog each get an "error" record, and the next request is read. */
#include "serve.h"
#include "serve_input.h"
#include "cpu/cpu.h"
#include "harness/timer.h"
#include "lib/crc32.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "load/loaded.h"
#include "load/module_format.h"
#include "platform/status.h"
#include "record/log.h"
#include "report/write.h"
#include "options/option.h"
#include "options/settings.h"
#include "pmu/counters.h"
#include "run/suite.h"

static int session_status;

bool serve_wanted(const struct platform *p)
{
    if (!settings.serve)
        return false;
    if (p->read_byte)
        return true;
    log_note("error", "serve", "serve needs an input and this platform has none; the suite runs instead");
    return false;
}

static void request_identify(const struct platform *p)
{
    (void)p;
    write_cpu(cpu, NULL, cpu_xstate);
    write_timer(&timer);
    write_serve_done("identify", STATUS_OK);
}

/* run GLOB [OPTION...]: the boot's options, then the request's, for this
 * request only (the next one starts from the boot's again). The boot
 * line's problems were noted at boot: only the request's are noted here. */
static void request_run(const struct platform *p, const char *args)
{
    static char words[SERVE_LINE_MAX + 8];
    char glob[SERVE_LINE_MAX];
    const char *rest = kword(args, " ", glob, sizeof glob);
    if (!rest) {
        write_serve_error("run", "run needs a benchmark name or glob: run GLOB [OPTION=VALUE ...]");
        write_serve_done("run", STATUS_ERRORS);
        return;
    }
    options_reset();
    options_parse(p->cmdline);
    options_forget_problems();
    ksnprintf(words, sizeof words, "bench=%s %s", glob, rest);
    options_parse(words);
    options_report_problems();
    if (settings.pmu)
        counters_choose_events(); /* the request's events= (snippet --events over serial) */
    unsigned ran = 0;
    int status = suite_run_selected(p, &ran);
    if (!ran) {
        char why[SERVE_LINE_MAX + 40];
        ksnprintf(why, sizeof why, "no benchmark matches '%s' (request list)", glob);
        write_serve_error("run", why);
        status = STATUS_ERRORS;
    } else if (status == STATUS_BENCH_FAULT) {
        write_serve_error("run", "a benchmark faulted or ran past the watchdog (its fault record is "
                          "above); it was stopped and the session goes on");
    }
    session_status = status_worst(session_status, status);
    write_serve_done("run", status);
}

static bool parse_u32(const char *s, unsigned base, uint32_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        unsigned d = *s >= '0' && *s <= '9' ? (unsigned)(*s - '0')
                   : *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
                   : *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10) : 99u;
        if (d >= base || (v = v * base + d) > 0xffffffffu)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

static void load_failed(const char *why)
{
    write_serve_error("load", why);
    write_serve_done("load", STATUS_ERRORS);
}

/* load LENGTH CRC32: LENGTH bytes follow the line at once; CRC32 (8 hex
 * digits) is the CRC-32 of those bytes. */
static void request_load(const struct platform *p, const char *args)
{
    static uint8_t frame[MODULE_FILE_MAX];
    char len_word[16], crc_word[16], why[200];
    uint32_t len, crc;
    const char *q = kword(args, " ", len_word, sizeof len_word);
    if (!q || !kword(q, " ", crc_word, sizeof crc_word) || !parse_u32(len_word, 10, &len) ||
        !parse_u32(crc_word, 16, &crc))
        {
        load_failed("load needs the frame's length and CRC-32: load LENGTH CRC32HEX");
        return;
    }
    if (len == 0 || len > sizeof frame) {
        serve_drain(p, 200);
        ksnprintf(why, sizeof why, "frame of %u bytes refused (1..%u); its bytes were discarded",
                  (unsigned)len, (unsigned)sizeof frame);
        {
        load_failed(why);
        return;
    }
    }
    uint32_t got = serve_read_frame(p, frame, len);
    if (got < len) {
        ksnprintf(why, sizeof why, "broken frame: %u of %u bytes arrived, then nothing for %u ms",
                  (unsigned)got, (unsigned)len, SERVE_GAP_POLLS);
        {
        load_failed(why);
        return;
    }
    }
    uint32_t seen = crc32_update(0, frame, len);
    if (seen != crc) {
        ksnprintf(why, sizeof why, "frame CRC-32 is 0x%08x, the request said 0x%08x; not loaded",
                  (unsigned)seen, (unsigned)crc);
        {
        load_failed(why);
        return;
    }
    }
    static struct module_verdict v;
    loaded_add(frame, len, "session", &v);
    write_module(&v);
    if (!v.accepted)
        {
        load_failed(v.why);
        return;
    }
    write_serve_done("load", STATUS_OK);
}

static void request_reboot(const struct platform *p)
{
    if (!p->reboot) {
        write_serve_error("reboot", "this platform cannot reboot (the hosted runner is a process)");
        write_serve_done("reboot", STATUS_ERRORS);
        return;
    }
    write_serve_done("reboot", STATUS_OK);
    p->reboot();
}

static const char *const requests = "identify, list, run GLOB [OPTIONS], load LENGTH CRC32, reboot, end";

/* One request; false: the session ends. */
static bool request(const struct platform *p, const char *line)
{
    char verb[16];
    const char *args = kword(line, " ", verb, sizeof verb);
    char why[SERVE_LINE_MAX + 96];
    if (!args)
        return true; /* an empty line: nothing to answer (a host may send one to resynchronize) */
    if (kstrcmp(verb, "identify") == 0) {
        request_identify(p);
    } else if (kstrcmp(verb, "list") == 0) {
        suite_list(p);
        write_serve_done("list", STATUS_OK);
    } else if (kstrcmp(verb, "run") == 0) {
        request_run(p, args);
    } else if (kstrcmp(verb, "load") == 0) {
        request_load(p, args);
    } else if (kstrcmp(verb, "reboot") == 0) {
        request_reboot(p);
    } else if (kstrcmp(verb, "end") == 0) {
        write_serve_done("end", session_status);
        return false;
    } else {
        ksnprintf(why, sizeof why, "unknown request '%.40s'; the requests are: %s", line, requests);
        write_serve_error("request", why);
        write_serve_done("request", STATUS_ERRORS);
    }
    return true;
}

static int session(const struct platform *p)
{
    static char line[SERVE_LINE_MAX];
    struct serve_info info = { SERVE_PROTOCOL, p->input_name ? p->input_name : "input",
                               SERVE_LINE_MAX - 1, MODULE_FILE_MAX, settings.watchdog };
    session_status = STATUS_OK;
    write_serve_ready(&info);
    for (;;) {
        int n = serve_read_line(p, line, sizeof line);
        if (n == SERVE_LINE_CLOSED) {
            write_serve_end("the input closed");
            break;
        }
        if (n == SERVE_LINE_TOO_LONG) {
            write_serve_error("request", "request line longer than 255 bytes; ignored");
            write_serve_done("request", STATUS_ERRORS);
            continue;
        }
        if (!request(p, line)) {
            write_serve_end("end requested");
            break;
        }
    }
    return session_status;
}

int serve_run(const struct platform *p)
{
    return suite_serve(p, session);
}

const struct run_session serve_session = { serve_wanted, serve_run };
