/* Reading fields as text, for the formats (formats.h). Apart from the
 * table in formats.c, which names every format: the formats use these. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "formats.h"

void format_scalar(const struct field *f, char *buf, size_t size)
{
    switch (f->kind) {
    case FIELD_U64: ksnprintf(buf, size, "%llu", (unsigned long long)f->v.u); break;
    case FIELD_I64: ksnprintf(buf, size, "%lld", (long long)f->v.i); break;
    case FIELD_HEX: ksnprintf(buf, size, "0x%llx", (unsigned long long)f->v.u); break;
    case FIELD_FIXED: kfixed(buf, size, f->v.i, f->decimals); break;
    case FIELD_STR: ksnprintf(buf, size, "%.*s", (int)f->len, f->v.s); break;
    case FIELD_BOOL: ksnprintf(buf, size, "%s", f->v.b ? "true" : "false"); break;
    case FIELD_NULL: ksnprintf(buf, size, "null"); break;
    default: ksnprintf(buf, size, "%s", ""); break;
    }
}

const char *format_str(const struct record *r, const char *key, const char *def)
{
    const struct field *f = record_get(r, key);
    return f && f->kind == FIELD_STR ? f->v.s : def;
}

bool format_flag(const struct record *r, const char *key)
{
    const struct field *f = record_get(r, key);
    return f && f->kind == FIELD_BOOL && f->v.b;
}

bool format_number(const struct record *r, int from, const char *key, int64_t *value)
{
    int i = record_find(r, from, key);
    if (i < 0 || r->field[i].kind == FIELD_NULL || r->field[i].kind == FIELD_STR)
        return false;
    *value = r->field[i].v.i;
    return true;
}

bool format_cycles_exact(const struct record *r)
{
    return kstrncmp(format_str(r, "cycles_unit", ""), "exact", 5) == 0;
}
