/* The parse of sibling=BODY[,ANTAGONIST] (see sibling_choice.h). */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "sibling_choice.h"

static const char *const names[SIBK_COUNT] = {
    [SIBK_ADD] = "add", [SIBK_IMUL] = "imul", [SIBK_LOAD] = "load", [SIBK_STORE] = "store",
    [SIBK_X87] = "x87", [SIBK_SSE2] = "sse2", [SIBK_PAUSE] = "pause", [SIBK_NONE] = "none",
};

const char *sibling_kernel_name(unsigned id)
{
    return id < SIBK_COUNT ? names[id] : NULL;
}

/* The id of the name text[0..len), or SIBK_COUNT. */
static unsigned lookup(const char *text, size_t len)
{
    for (unsigned i = 0; i < SIBK_COUNT; i++)
        if (kstrlen(names[i]) == len && kstrncmp(names[i], text, len) == 0)
            return i;
    return SIBK_COUNT;
}

static void set_default(struct sibling_choice *out)
{
    out->body = SIBK_ADD;
    out->n = 1;
    out->antagonist[0] = SIBK_ADD;
}

/* One word of the option: a kernel's id, or SIBK_COUNT with why[] set. */
static unsigned word(const char *text, size_t len, bool as_body, char *why, size_t why_size)
{
    unsigned id = lookup(text, len);
    if (len == 0)
        ksnprintf(why, why_size, "an empty name");
    else if (id == SIBK_COUNT)
        ksnprintf(why, why_size, "'%.*s' is not a kernel", (int)len, text);
    else if (as_body && id == SIBK_NONE)
        ksnprintf(why, why_size, "'none' is an antagonist only: the body must run");
    else
        return id;
    return SIBK_COUNT;
}

bool sibling_choice_parse(const char *text, struct sibling_choice *out, char *why, size_t why_size)
{
    set_default(out);
    if (why_size)
        why[0] = 0;
    if (kstrcmp(text, "all") == 0)
        text = "add,all";
    const char *comma = text;
    while (*comma && *comma != ',')
        comma++;
    unsigned body = word(text, (size_t)(comma - text), true, why, why_size);
    if (body == SIBK_COUNT)
        return false;
    const char *second = *comma ? comma + 1 : text;
    size_t second_len = *comma ? kstrlen(second) : (size_t)(comma - text);
    for (size_t i = 0; i < second_len; i++)
        if (second[i] == ',') {
            ksnprintf(why, why_size, "more than BODY,ANTAGONIST");
            return false;
        }
    struct sibling_choice c = { .body = (uint8_t)body };
    if (second_len == 3 && kstrncmp(second, "all", 3) == 0) {
        for (unsigned i = 0; i < SIBK_COUNT; i++)
            c.antagonist[c.n++] = (uint8_t)i;
    } else {
        unsigned a = word(second, second_len, false, why, why_size);
        if (a == SIBK_COUNT)
            return false;
        c.antagonist[c.n++] = (uint8_t)a;
    }
    *out = c;
    return true;
}
