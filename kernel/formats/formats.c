/* The registered formats and the format= option that turns on the ones not
 * on by default. Order matters where formats share a channel: the readable
 * lines of a record come before its JSON line, as they always have. */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "record/log.h"
#include "formats.h"

static const struct format *const formats[] = {
    &format_text,
    &format_json,
    &format_screen,
    &format_tap,
};
#define FORMATS (sizeof formats / sizeof formats[0])

/* Is name one of format='s comma-separated words? */
static bool named(const char *name)
{
    size_t n = kstrlen(name);
    for (const char *w = settings.format; *w;) {
        const char *end = w;
        while (*end && *end != ',')
            end++;
        if ((size_t)(end - w) == n && kstrncmp(w, name, n) == 0)
            return true;
        w = *end ? end + 1 : end;
    }
    return false;
}

static bool known(const char *word, size_t len)
{
    for (unsigned i = 0; i < FORMATS; i++)
        if (kstrlen(formats[i]->name) == len && kstrncmp(formats[i]->name, word, len) == 0)
            return true;
    return false;
}

/* After the begin record (the notes need it first): each word of format=
 * that names no format, with what is used instead. */
static void note_unknown_names(void)
{
    for (const char *w = settings.format; *w;) {
        const char *end = w;
        while (*end && *end != ',')
            end++;
        if (end > w && !known(w, (size_t)(end - w)))
            log_note("warn", "option", "format=%s: no format '%.*s' (there are text, json, screen, tap); "
                     "ignored, the others are used", settings.format, (int)(end - w), w);
        w = *end ? end + 1 : end;
    }
}

static void dispatch(const struct record *r)
{
    for (unsigned i = 0; i < FORMATS; i++)
        if (formats[i]->by_default || named(formats[i]->name))
            formats[i]->record(r);
    if (record_is(r, "begin"))
        note_unknown_names();
}

static void reset_all(void)
{
    for (unsigned i = 0; i < FORMATS; i++)
        if (formats[i]->reset)
            formats[i]->reset();
}

static const struct record_sink sink = { dispatch, reset_all };

void formats_install(void) { record_install_sink(&sink); }
