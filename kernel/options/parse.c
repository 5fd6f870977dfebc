#include "lib/fmt.h"
#include "lib/kstring.h"
#include "option.h"
#include "record/log.h"

/* Weak: a program that declares no option has no such section (host tests). */
extern const struct option __start_ck_options[] __attribute__((weak));
extern const struct option __stop_ck_options[] __attribute__((weak));

#define PROBLEMS_MAX 8
/* A problem: its text (a note's holds 255), whether it was the user's
 * mistake (an unknown word, a bad value; not an option that means nothing
 * on this platform), and the option an unknown word most likely meant. */
static struct {
    char text[256];
    bool mistake;
    const struct option *near;
} problems[PROBLEMS_MAX];
#define VALUE_SHOWN 120 /* characters of a bad value quoted in its message */
static int nproblems, nproblems_total;

/* The user's mistakes as reported (the hosted runner repeats them on stderr
 * and exits 2); they outlive options_forget_problems(). */
#define MISTAKES_MAX 4
static char mistakes[MISTAKES_MAX][256];
static int nmistakes, nmistakes_total;

/* NULL on bare metal; the hosted runner's program name (options_set_runner). */
static const char *runner;

static void add_problem(bool mistake, const struct option *near, const char *text)
{
    nproblems_total++;
    if (nproblems == PROBLEMS_MAX)
        return;
    problems[nproblems].mistake = mistake;
    problems[nproblems].near = near;
    kstrlcpy(problems[nproblems++].text, text, sizeof problems[0].text);
}

/* A bad value or a word too long: the user's mistake. */
static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
    char text[sizeof problems[0].text];
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    add_problem(true, NULL, text);
}

static void set_default(const struct option *o)
{
    switch (o->kind) {
    case OPTION_UINT:
    case OPTION_ENUM: *(uint32_t *)o->value = o->def; break;
    case OPTION_BOOL: *(bool *)o->value = o->def != 0; break;
    case OPTION_STR: kstrlcpy(o->value, o->str_def, o->max); break;
    case OPTION_ELSEWHERE: break;
    }
}

void options_reset(void)
{
    for (const struct option *o = __start_ck_options; o < __stop_ck_options; o++)
        set_default(o);
    nproblems = nproblems_total = 0;
    nmistakes = nmistakes_total = 0;
}

const struct option *option_find(const char *key)
{
    for (const struct option *o = __start_ck_options; o < __stop_ck_options; o++)
        if (kstrcmp(o->key, key) == 0)
            return o;
    return NULL;
}

/* Decimal or 0x-hex, the whole word, no overflow past 32 bits. */
static bool parse_u32(const char *s, uint32_t *out)
{
    unsigned base = 10;
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return false;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A' + 10);
        else return false;
        v = v * base + d;
        if (v > UINT32_MAX)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

static bool lookup_name(const struct option_name *names, const char *s, uint32_t *out)
{
    for (; names && names->name; names++)
        if (kstrcmp(names->name, s) == 0) {
            *out = names->value;
            return true;
        }
    return false;
}

static const struct option_name bool_names[] = {
    { "1", 1 }, { "0", 0 }, { "yes", 1 }, { "no", 0 }, { "on", 1 }, { "off", 0 },
    { "true", 1 }, { "false", 0 }, { NULL, 0 },
};

static void describe_default(const struct option *o, char *buf, size_t size)
{
    switch (o->kind) {
    case OPTION_UINT:
        ksnprintf(buf, size, "%u", (unsigned)o->def);
        for (const struct option_name *n = o->names; n && n->name; n++)
            if (n->value == o->def) {
                ksnprintf(buf, size, "%s", n->name);
                break;
            }
        break;
    case OPTION_BOOL: ksnprintf(buf, size, "%s", o->def ? "on" : "off"); break;
    case OPTION_STR: ksnprintf(buf, size, "'%s'", o->str_def); break;
    case OPTION_ELSEWHERE: ksnprintf(buf, size, "-"); break;
    case OPTION_ENUM:
        ksnprintf(buf, size, "?");
        for (const struct option_name *n = o->names; n && n->name; n++)
            if (n->value == o->def) {
                ksnprintf(buf, size, "%s", n->name);
                break;
            }
        break;
    }
}

/* What a good value looks like: "a number in 1..100000", "one of auto|on|off". */
static void describe_expected(const struct option *o, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    switch (o->kind) {
    case OPTION_UINT:
        len = (size_t)ksnprintf(buf, size, "a number in %u..%u", (unsigned)o->min, (unsigned)o->max);
        break;
    case OPTION_BOOL: ksnprintf(buf, size, "on/off"); return;
    case OPTION_STR:
        ksnprintf(buf, size, "text of at most %u characters", (unsigned)o->max - 1);
        return;
    case OPTION_ENUM: break;
    case OPTION_ELSEWHERE: ksnprintf(buf, size, "nothing: %s", o->help); return;
    }
    for (const struct option_name *n = o->names; n && n->name && len < size; n++)
        len += (size_t)ksnprintf(buf + len, size - len, "%s%s",
                                 n != o->names ? "|" : len ? " or one of " : "one of ", n->name);
}

/* Every bad value: the option, the value, what was expected, the default. */
static void reject(const struct option *o, const char *value)
{
    char def[48], expected[128];
    describe_default(o, def, sizeof def);
    describe_expected(o, expected, sizeof expected);
    if (value)
        problem("option '%s': '%.*s%s' is not %s; using the default %s", o->key, VALUE_SHOWN, value,
                kstrlen(value) > VALUE_SHOWN ? "..." : "", expected, def);
    else
        problem("option '%s': no value given, expected %s; using the default %s", o->key, expected,
                def);
    set_default(o);
}

/* An option of the other platform: noted, not the user's mistake (the same
 * command line serves both). */
static void elsewhere(const struct option *o)
{
    char text[sizeof problems[0].text];
    ksnprintf(text, sizeof text, "option '%s' has no meaning here: %s; ignored", o->key, o->help);
    add_problem(false, NULL, text);
}

static void apply(const struct option *o, const char *value)
{
    uint32_t v;
    switch (o->kind) {
    case OPTION_UINT:
        if (value && (lookup_name(o->names, value, &v) ||
                      (parse_u32(value, &v) && v >= o->min && v <= o->max))) {
            *(uint32_t *)o->value = v;
            return;
        }
        break;
    case OPTION_ENUM:
        if (value && lookup_name(o->names, value, &v)) {
            *(uint32_t *)o->value = v;
            return;
        }
        break;
    case OPTION_BOOL:
        if (!value || lookup_name(bool_names, value, &v)) {
            *(bool *)o->value = value ? v != 0 : true;
            return;
        }
        break;
    case OPTION_STR:
        if (value && kstrlen(value) < o->max) {
            kstrlcpy(o->value, value, o->max);
            return;
        }
        break;
    case OPTION_ELSEWHERE:
        elsewhere(o);
        return;
    }
    reject(o, value);
}

/* Levenshtein distance (insertions, deletions, substitutions), one row at
 * a time; words longer than a key or a benchmark name can be are cut, they
 * match nothing near. */
#define NEAR_LEN 64
unsigned option_edit_distance(const char *a, const char *b)
{
    unsigned row[NEAR_LEN + 1];
    size_t la = kstrlen(a), lb = kstrlen(b);
    la = la > NEAR_LEN ? NEAR_LEN : la;
    lb = lb > NEAR_LEN ? NEAR_LEN : lb;
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The option a mistyped word most likely meant: the nearest key, when at
 * most 2 edits away and closer than the word's own length (so "x" does
 * not suggest "on"); NULL when none is that near. */
static const struct option *option_find_nearest(const char *word)
{
    const struct option *best = NULL;
    unsigned best_d = 3;
    for (const struct option *o = __start_ck_options; o < __stop_ck_options; o++) {
        if (o->kind == OPTION_ELSEWHERE)
            continue;
        unsigned d = option_edit_distance(word, o->key);
        if (d < best_d && d < kstrlen(word)) {
            best_d = d;
            best = o;
        }
    }
    return best;
}

const char *option_nearest(const char *word)
{
    const struct option *o = option_find_nearest(word);
    return o ? o->key : NULL;
}

bool option_near(const char *word, const char *name)
{
    unsigned d = option_edit_distance(word, name);
    return d <= 2 && d < kstrlen(word);
}

void options_set_runner(const char *name) { runner = name; }

/* How a reader asks for `what` ("help", "list"): bare metal boots with it,
 * the hosted runner takes it as its argument. */
void options_ask(const char *what, char *buf, size_t size)
{
    if (runner)
        ksnprintf(buf, size, "`%s %s`", runner, what);
    else
        ksnprintf(buf, size, "boot with '%s'", what);
}

static void unknown(const char *word)
{
    const struct option *near = option_find_nearest(word);
    char ask[96], text[sizeof problems[0].text];
    options_ask("help", ask, sizeof ask);
    if (near)
        ksnprintf(text, sizeof text, "unknown option '%s' ignored (%s for the list); did you mean '%s'?", word,
                  ask, near->key);
    else
        ksnprintf(text, sizeof text, "unknown option '%s' ignored (%s for the list)", word, ask);
    add_problem(true, near, text);
}

int options_parse(const char *cmdline)
{
    int before = nproblems_total;
    const char *p = cmdline ? cmdline : "";
    char word[256];
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        bool too_long = false;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (n + 1 < sizeof word)
                word[n++] = *p;
            else
                too_long = true;
            p++;
        }
        word[n] = '\0';
        if (word[0] == '/')
            continue;
        char *eq = word;
        while (*eq && *eq != '=')
            eq++;
        const char *value = NULL;
        if (*eq == '=') {
            *eq = '\0';
            value = eq + 1;
        }
        const struct option *o = option_find(word);
        if (too_long && o && value)
            reject(o, value); /* quoted cut short: the message says "..." */
        else if (too_long)
            problem("a word of the command line is longer than %u characters; ignored",
                    (unsigned)sizeof word - 1);
        else if (!o)
            unknown(word);
        else
            apply(o, value);
    }
    return nproblems_total - before;
}

/* An option's value now, as a user would type it ("8", "auto", "'calib/add_chain'"). */
static void describe_value(const struct option *o, char *buf, size_t size)
{
    uint32_t v = 0;
    switch (o->kind) {
    case OPTION_UINT:
    case OPTION_ENUM: v = *(const uint32_t *)o->value; break;
    case OPTION_BOOL: ksnprintf(buf, size, "%s", *(const bool *)o->value ? "on" : "off"); return;
    case OPTION_STR: ksnprintf(buf, size, "'%s'", (const char *)o->value); return;
    case OPTION_ELSEWHERE: ksnprintf(buf, size, "-"); return;
    }
    ksnprintf(buf, size, "%u", (unsigned)v);
    for (const struct option_name *n = o->names; n && n->name; n++)
        if (n->value == v) {
            ksnprintf(buf, size, "%s", n->name);
            return;
        }
}

void options_note_mistake(const char *fmt, ...)
{
    if (nmistakes == MISTAKES_MAX) {
        nmistakes_total++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(mistakes[nmistakes++], sizeof mistakes[0], fmt, ap);
    va_end(ap);
    nmistakes_total++;
}

int options_mistakes(void) { return nmistakes_total; }

const char *options_mistake(int i) { return i >= 0 && i < nmistakes ? mistakes[i] : NULL; }

/* The hosted runner says what it used instead of an unknown word: the
 * value of the option it most likely meant, once every word is parsed
 * (bare metal's notes stay as they were). */
static void report_problem(int i)
{
    char text[sizeof problems[0].text + 64], value[48];
    kstrlcpy(text, problems[i].text, sizeof text);
    if (runner && problems[i].near) {
        describe_value(problems[i].near, value, sizeof value);
        size_t len = kstrlen(text);
        ksnprintf(text + len, sizeof text - len, " the run used %s=%s", problems[i].near->key, value);
    } else if (runner && kstrncmp(text, "unknown option ", 15) == 0) {
        size_t len = kstrlen(text);
        ksnprintf(text + len, sizeof text - len, "; the run went on without it");
    }
    log_note("warn", "cmdline", "%s", text);
    if (problems[i].mistake)
        options_note_mistake("%s", text);
}

void options_report_problems(void)
{
    for (int i = 0; i < nproblems; i++)
        report_problem(i);
    if (nproblems_total > nproblems)
        log_note("warn", "cmdline", "%d more problems not shown", nproblems_total - nproblems);
    options_forget_problems();
}

void options_forget_problems(void)
{
    nproblems = nproblems_total = 0;
}

const struct option *options_begin(void) { return __start_ck_options; }
const struct option *options_end(void) { return __stop_ck_options; }

void option_describe_default(const struct option *o, char *buf, size_t size)
{
    describe_default(o, buf, size);
}

void option_describe_choices(const struct option *o, char *buf, size_t size)
{
    buf[0] = '\0';
    if (o->kind == OPTION_ENUM || (o->kind == OPTION_UINT && o->names)) {
        size_t len = 0;
        for (const struct option_name *nm = o->names; nm && nm->name; nm++)
            len += (size_t)ksnprintf(buf + len, len < size ? size - len : 0, "%s%s",
                                     nm == o->names ? " [" : "|", nm->name);
        if (len < size)
            ksnprintf(buf + len, size - len, "]");
    } else if (o->kind == OPTION_UINT) {
        ksnprintf(buf, size, " [%u..%u]", (unsigned)o->min, (unsigned)o->max);
    }
}
