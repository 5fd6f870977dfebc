/* A record: one thing the run says (a result, a note, the CPU), built once
 * as a type and an ordered list of named fields, then handed whole to the
 * formats (kernel/formats/: JSON lines, readable text, the screen, TAP13),
 * which render it each in their own way. The builder knows no format: a
 * field is written once, here, and every format sees it, so adding a field
 * to a record is one rec_* line in its writer.
 *
 * This room sits low (under cpu/, pmu/, harness/) because every room may
 * build a record or a note; the formats sit at the top and are reached only
 * through the sink the composition root installs (record_install_sink), so
 * nothing here calls up into them.
 *
 * Building: rec_open(type), fields in order, rec_close(). Objects and
 * arrays nest inside the open record (rec_obj_open/rec_arr_open with a
 * key, or NULL inside an array); levels left open are closed by rec_close.
 * Strings and keys are copied, so a writer may pass its own buffers. */
#ifndef CK_RECORD_H
#define CK_RECORD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum field_kind {
    FIELD_U64,       /* v.u */
    FIELD_I64,       /* v.i */
    FIELD_HEX,       /* v.u, shown as "0x1f" (a string in JSON) */
    FIELD_FIXED,     /* v.i / 10^decimals: 305, 2 -> 3.05 */
    FIELD_STR,       /* v.s, len bytes (no NUL inside) */
    FIELD_BOOL,      /* v.b */
    FIELD_NULL,      /* no value (JSON null): why is usually a *_reason field */
    FIELD_OBJ_OPEN, FIELD_OBJ_CLOSE,
    FIELD_ARR_OPEN, FIELD_ARR_CLOSE,
    FIELD_U64_LIST,  /* v.list[0..len): a list of unsigned values, kept by the writer */
    /* Properties of the stream a format writes, not of the run: each format
     * fills them in from its own state (the JSON lines' checksum and run id). */
    FIELD_RUN_ID,    /* begin: the run id from the stream so far and v.u, the first TSC
                        (decimals 1: there was a TSC); end: repeats it */
    FIELD_CHECKSUM,  /* end: the checksum over the stream's records so far */
};

struct field {
    const char *key;            /* NULL inside an array */
    union {
        uint64_t u;
        int64_t i;
        const char *s;
        bool b;
        const uint64_t *list;
    } v;
    uint32_t len;               /* FIELD_STR: bytes; FIELD_U64_LIST: values */
    uint8_t kind;               /* enum field_kind */
    uint8_t decimals;           /* FIELD_FIXED */
};

struct record {
    const char *type;
    const struct field *field;
    unsigned n;
    unsigned dropped;           /* fields that did not fit (the record is cut short) */
};

void rec_open(const char *type);
void rec_str(const char *key, const char *value);
void rec_strn(const char *key, const char *value, unsigned len);
void rec_u64(const char *key, uint64_t value);
void rec_i64(const char *key, int64_t value);
void rec_hex(const char *key, uint64_t value);      /* "0x1f" as a string */
void rec_fixed(const char *key, int64_t scaled, unsigned decimals); /* 305 -> 3.05 */
void rec_bool(const char *key, bool value);
void rec_null(const char *key);
void rec_u64_list(const char *key, const uint64_t *values, uint32_t n); /* values live to rec_close */
void rec_stream_field(const char *key, enum field_kind kind, uint64_t value, bool have);
void rec_obj_open(const char *key);  /* key NULL inside an array */
void rec_obj_close(void);
void rec_arr_open(const char *key);
void rec_arr_close(void);
void rec_close(void);                /* hands the record to the sink */

/* Reading a record (the formats): the index of the field named key at the
 * top level (from == 0) or directly inside the object or array opened at
 * index from - 1; -1 when absent. record_after(r, i): the index after field
 * i and everything nested in it. */
int record_find(const struct record *r, int from, const char *key);
int record_after(const struct record *r, int i);
const struct field *record_get(const struct record *r, const char *key); /* top level, or NULL */
bool record_is(const struct record *r, const char *type);

/* Where finished records go. reset: a new log (tests). Installed once by
 * the composition root (the mains, the unit tests' platform). */
struct record_sink {
    void (*record)(const struct record *r);
    void (*reset)(void);
};
void record_install_sink(const struct record_sink *sink);

/* Records handed on since the last reset, and a forgetting reset (tests). */
unsigned record_count(void);
void record_reset(void);

#endif
