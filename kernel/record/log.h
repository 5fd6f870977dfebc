/* The log: records (record.h), rendered by the active formats
 * (kernel/formats/), among them one JSON object per line (OUT_MACHINE,
 * formats/json.c) and readable text (OUT_HUMAN, formats/text.c).
 *
 * Machine lines: the first record is
 *   {"type":"begin","schema":N,"program":"cyclekit","version":V,"built":B,
 *    "compiler":C,"platform":P,"cmdline":L,"run":"0x................"}
 * version: `git describe --always --dirty` at build time ("unknown" when not
 * built from a git checkout); built: the build's UTC date and time
 * ("2026-11-23T03:30:00Z"); compiler: the __VERSION__ of the compiler that
 * built it (lib/build.h). run: the run id, 16 hex digits: FNV-1a 64 over the
 * begin record's checksum up to "run" (4 bytes, little-endian) and the first
 * TSC read of the run (8 bytes, little-endian; left out where there is no
 * TSC, e.g. a 486, when the id only tells builds and command lines apart).
 * The last record is
 *   {"type":"end","records":N,"checksum":"0x........","status":S,"errors":E,
 *    "trust":T,"flagged":F,"run":R}
 * where records counts every JSON line before it (begin included), checksum
 * is FNV-1a 32 over those lines' bytes, newline excluded, in order, and run
 * repeats the begin record's. trust: "untrusted" when the timer is not
 * trustworthy (or a result said so), else "flagged" when F > 0 results
 * carry marks other than "ok", else "trusted". A log without a valid end record is truncated.
 * Key order inside a record is the order of the calls; string values are
 * JSON-escaped by formats/json.c. */
#ifndef CK_LOG_H
#define CK_LOG_H
#include <stdbool.h>
#include <stdint.h>
#include "record.h"

#define LOG_SCHEMA 2

/* have_tsc/tsc: the run's first TSC read, for the run id (see above). */
void log_begin(const char *platform_name, const char *cmdline, bool have_tsc, uint64_t tsc);
int log_end(int status); /* writes the end record; returns status */

/* Records: rec_open(type), fields, rec_close() (record.h); the formats
 * (kernel/formats/) render each: JSON above, readable text, the screen. */
/* Readable-only lines (section headings, tables). */
void log_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A note: the record {"type":"note","level":..,"topic":..,"text":..}, which
 * the readable text shows as "[level] topic: text" and the screen as a line
 * (warnings and errors). Levels: "info", "warn", "error". */
void log_note(const char *level, const char *topic, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The run's trust, tallied as the writers pass it on: the timer's verdict
 * (the trust record) and each result's (flagged: its marks are not "ok";
 * untrusted: it was measured on an untrusted timer). */
struct log_trust {
    bool timer_known, timer_trusted;
    unsigned results, flagged, untrusted;
};
void log_tally_timer(bool trusted);
void log_tally_result(bool flagged, bool untrusted);
const struct log_trust *log_trust(void);
const char *log_trust_word(void); /* "trusted", "flagged", "untrusted" */

/* Counters for the exit status and the summary. */
unsigned log_records(void); /* records so far (each is one JSON line) */
unsigned log_errors(void); /* notes of level "error" */

/* For tests: forget all state (a new log). */
void log_reset(void);

#endif
