/* The record builder: fields collected in order into one static record,
 * handed to the installed sink on rec_close. One record is open at a time
 * (the kernel runs one writer at a time; other processors never write). */
#include "lib/kstring.h"
#include "record.h"

/* The largest records: a 5000-value array (the log's test), msrscan's
 * ranges and values; raw samples travel as FIELD_U64_LIST. */
#define FIELDS_MAX 6144
#define ARENA_SIZE 65536

static struct {
    bool open;
    const char *type;
    unsigned n, dropped, count;
    size_t used;
    struct field field[FIELDS_MAX];
    char arena[ARENA_SIZE];     /* copies of keys and strings */
    const struct record_sink *sink;
} rb;

void record_install_sink(const struct record_sink *sink) { rb.sink = sink; }

void record_reset(void)
{
    rb.open = false;
    rb.n = rb.dropped = rb.count = 0;
    rb.used = 0;
    if (rb.sink && rb.sink->reset)
        rb.sink->reset();
}

unsigned record_count(void) { return rb.count; }

/* A copy in the arena, NUL-terminated; NULL when it is full. */
static const char *keep(const char *s, size_t len)
{
    if (rb.used + len + 1 > sizeof rb.arena)
        return NULL;
    char *at = rb.arena + rb.used;
    kmemcpy(at, s, len);
    at[len] = '\0';
    rb.used += len + 1;
    return at;
}

/* The next field, its key copied; NULL (and counted) when the record is full. */
static struct field *add(const char *key, enum field_kind kind)
{
    if (!rb.open)
        return NULL;
    const char *k = key ? keep(key, kstrlen(key)) : NULL;
    if (rb.n == FIELDS_MAX || (key && !k)) {
        rb.dropped++;
        return NULL;
    }
    struct field *f = &rb.field[rb.n++];
    *f = (struct field){ .key = k, .kind = (uint8_t)kind };
    return f;
}

void rec_open(const char *type)
{
    if (rb.open)
        rec_close(); /* a forgotten close must not merge two records */
    rb.open = true;
    rb.n = rb.dropped = 0;
    rb.used = 0;
    rb.type = keep(type, kstrlen(type));
}

void rec_close(void)
{
    if (!rb.open)
        return;
    rb.open = false;
    rb.count++;
    struct record r = { .type = rb.type, .field = rb.field, .n = rb.n, .dropped = rb.dropped };
    /* Last: a format may build a record of its own (a note) from here. */
    if (rb.sink)
        rb.sink->record(&r);
}

void rec_str(const char *key, const char *value)
{
    rec_strn(key, value ? value : "", value ? (unsigned)kstrlen(value) : 0);
}

void rec_strn(const char *key, const char *value, unsigned len)
{
    struct field *f = add(key, FIELD_STR);
    if (!f)
        return;
    size_t n = kstrnlen(value, len);
    f->v.s = keep(value, n);
    f->len = (uint32_t)n;
    if (!f->v.s) { /* the arena is full: the field goes, not the record */
        rb.n--;
        rb.dropped++;
    }
}

static void number(const char *key, enum field_kind kind, uint64_t u, unsigned decimals)
{
    struct field *f = add(key, kind);
    if (f) {
        f->v.u = u;
        f->decimals = (uint8_t)decimals;
    }
}

void rec_u64(const char *key, uint64_t value) { number(key, FIELD_U64, value, 0); }
void rec_i64(const char *key, int64_t value) { number(key, FIELD_I64, (uint64_t)value, 0); }
void rec_hex(const char *key, uint64_t value) { number(key, FIELD_HEX, value, 0); }
void rec_fixed(const char *key, int64_t scaled, unsigned decimals)
{
    number(key, FIELD_FIXED, (uint64_t)scaled, decimals);
}

void rec_bool(const char *key, bool value)
{
    struct field *f = add(key, FIELD_BOOL);
    if (f)
        f->v.b = value;
}

void rec_null(const char *key) { add(key, FIELD_NULL); }

void rec_u64_list(const char *key, const uint64_t *values, uint32_t n)
{
    struct field *f = add(key, FIELD_U64_LIST);
    if (f) {
        f->v.list = values;
        f->len = n;
    }
}

void rec_stream_field(const char *key, enum field_kind kind, uint64_t value, bool have)
{
    number(key, kind, value, have);
}

void rec_obj_open(const char *key) { add(key, FIELD_OBJ_OPEN); }
void rec_obj_close(void) { add(NULL, FIELD_OBJ_CLOSE); }
void rec_arr_open(const char *key) { add(key, FIELD_ARR_OPEN); }
void rec_arr_close(void) { add(NULL, FIELD_ARR_CLOSE); }
