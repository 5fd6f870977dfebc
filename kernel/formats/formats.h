/* The formats: each renders finished records (record/record.h) its own way,
 * on the output channels (platform/out.h). One file per format, registered
 * by one line in formats.c's table; the composition roots (the mains, the
 * unit tests' platform) call formats_install(), so no room below calls a
 * format. A format sees every record; it renders those it knows. */
#ifndef CK_FORMATS_H
#define CK_FORMATS_H
#include <stdbool.h>
#include <stddef.h>
#include "record/record.h"

struct format {
    const char *name;           /* as given in format= */
    bool by_default;            /* on without format= (json, text, screen) */
    void (*record)(const struct record *r);
    void (*reset)(void);        /* a new log (tests); may be NULL */
};

extern const struct format format_text, format_json, format_screen, format_tap;

/* Installs the formats as the records' sink. */
void formats_install(void);

/* Helpers for formats: a scalar field as text ("3.05", "0x1f", "true",
 * the string itself; "" for nested values), and the text of a top-level
 * field (def when absent or not a string). */
void format_scalar(const struct field *f, char *buf, size_t size);
const char *format_str(const struct record *r, const char *key, const char *def);
bool format_flag(const struct record *r, const char *key);  /* a top-level bool that is true */
/* A number field (fixed-point: its scaled value) at the top level (from 0)
 * or in the object opened at from - 1; false when absent or null. */
bool format_number(const struct record *r, int from, const char *key, int64_t *value);
/* A result's cycles are counted or exact, not estimated ("c", not "~"). */
bool format_cycles_exact(const struct record *r);

#endif
