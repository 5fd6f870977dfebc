/* Reading a finished record: the formats look fields up by name. */
#include "lib/kstring.h"
#include "record.h"

static bool opens(const struct field *f)
{
    return f->kind == FIELD_OBJ_OPEN || f->kind == FIELD_ARR_OPEN;
}

static bool closes(const struct field *f)
{
    return f->kind == FIELD_OBJ_CLOSE || f->kind == FIELD_ARR_CLOSE;
}

int record_after(const struct record *r, int i)
{
    if (i < 0 || (unsigned)i >= r->n)
        return (int)r->n;
    if (!opens(&r->field[i]))
        return i + 1;
    int depth = 0;
    for (unsigned k = (unsigned)i; k < r->n; k++) {
        if (opens(&r->field[k]))
            depth++;
        else if (closes(&r->field[k]) && --depth == 0)
            return (int)k + 1;
    }
    return (int)r->n; /* left open: closed by the record's end */
}

int record_find(const struct record *r, int from, const char *key)
{
    for (int i = from; i >= 0 && (unsigned)i < r->n; i = record_after(r, i)) {
        const struct field *f = &r->field[i];
        if (closes(f))
            return -1; /* the end of the object searched */
        if (f->key && kstrcmp(f->key, key) == 0)
            return i;
    }
    return -1;
}

const struct field *record_get(const struct record *r, const char *key)
{
    int i = record_find(r, 0, key);
    return i < 0 ? NULL : &r->field[i];
}

bool record_is(const struct record *r, const char *type)
{
    return r->type && kstrcmp(r->type, type) == 0;
}
