/* Command-line options: the registry. Each option is declared once, in the
 * option room (options/settings.c; the machines' own in kernel/bare/options.c
 * and kernel/hosted/options.c), with where its value lives, a field of the
 * one settings struct:
 *
 *     OPTION_UINT_AT(samples, &settings.samples, "samples", 201, 1, 2001, NULL,
 *                    "samples per result");
 *
 * It is registered in the ck_options section, so adding an option is one
 * declaration and a field, and `help` lists them all. */
#ifndef CK_OPTION_H
#define CK_OPTION_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum option_kind {
    OPTION_UINT, OPTION_BOOL, OPTION_ENUM, OPTION_STR,
    OPTION_ELSEWHERE, /* an option of the other platform: accepted, noted as meaningless here */
};

struct option_name {
    const char *name;
    uint32_t value;
};

struct option {
    const char *key;
    const char *help;
    enum option_kind kind;
    void *value;                     /* uint32_t* (uint, enum), bool*, char[] (str) */
    uint32_t def, min, max;          /* default and range; str: max = buffer size */
    const struct option_name *names; /* uint: optional aliases; enum: the choices */
    const char *str_def;
};

#define OPTION_SECTION __attribute__((section("ck_options"), used, aligned(sizeof(void *))))

/* An option whose value lives at `ptr_` (its field of the settings struct):
 * uint (names_: optional aliases, or NULL), enum (names_: the choices),
 * bool, str (buf_: a char array, its size the longest value + 1). */
#define OPTION_UINT_AT(id_, ptr_, key_, def_, min_, max_, names_, help_)              \
    static const struct option option_##id_ OPTION_SECTION = {                        \
        .key = (key_), .help = (help_), .kind = OPTION_UINT,                          \
        .value = _Generic((ptr_), uint32_t *: (ptr_)), /* a uint32_t field */         \
        .def = (def_), .min = (min_), .max = (max_), .names = (names_) }
#define OPTION_ENUM_AT(id_, ptr_, key_, def_, names_, help_)                          \
    static const struct option option_##id_ OPTION_SECTION = {                        \
        .key = (key_), .help = (help_), .kind = OPTION_ENUM,                          \
        .value = _Generic((ptr_), uint32_t *: (ptr_)), /* a uint32_t field */         \
        .def = (def_), .names = (names_) }
#define OPTION_BOOL_AT(id_, ptr_, key_, def_, help_)                                  \
    static const struct option option_##id_ OPTION_SECTION = {                        \
        .key = (key_), .help = (help_), .kind = OPTION_BOOL,                          \
        .value = _Generic((ptr_), bool *: (ptr_)), /* a bool field */                 \
        .def = (def_) }
#define OPTION_STR_AT(id_, buf_, key_, def_, help_)                                   \
    static const struct option option_##id_ OPTION_SECTION = {                        \
        .key = (key_), .help = (help_), .kind = OPTION_STR,                           \
        .value = _Generic((buf_), char *: (buf_)), /* a char array */                 \
        .max = sizeof(buf_), .str_def = (def_) }

/* The same option names exist on both platforms: an option that only the
 * other platform has is declared here with why it means nothing, so it is
 * listed by help and, when given, noted ("option 'serial' has no meaning
 * here: ...; ignored") instead of being an unknown word. */
#define OPTION_ELSEWHERE(var, key_, why_)                                             \
    static const struct option option_##var OPTION_SECTION = {                        \
        .key = (key_), .help = (why_), .kind = OPTION_ELSEWHERE }

/* Parses "key=value key2 key3=value" (a bare key sets a bool). Later words
 * win. Bad input never stops the run: each problem is kept as a message (a
 * bad value's names the option, the value, what was expected and the
 * default) and the option keeps (or returns to) its default. Words starting
 * with '/' are the kernel's path and are skipped. Returns the number of
 * problems. */
int options_parse(const char *cmdline);

/* Reports the problems found by options_parse as notes, then forgets them. */
void options_report_problems(void);
/* Forgets them unreported: they were reported once already (a serve
 * request re-parses the boot line before its own options). */
void options_forget_problems(void);

/* Every registered option, for the help table (report/write_options.c). */
const struct option *options_begin(void);
const struct option *options_end(void);
/* "200", "com1", "on", "\"*\"": the default as a user would type it. */
void option_describe_default(const struct option *o, char *buf, size_t size);
/* " [1..100000]", " [auto|on|off]", or "" when any value of the kind goes. */
void option_describe_choices(const struct option *o, char *buf, size_t size);

/* Every option back to its default (tests; a new parse starts from here too). */
void options_reset(void);

/* Looks an option up by key (NULL when unknown). */
const struct option *option_find(const char *key);

/* The key nearest to a word that is no option (at most 2 edits; NULL: none). */
const char *option_nearest(const char *word);
/* Levenshtein distance of two words (each cut at 64 characters), and
 * whether a name is near enough to a mistyped word to suggest it: at most
 * 2 edits, and fewer than the word's length. Benchmark names use them too. */
unsigned option_edit_distance(const char *a, const char *b);
bool option_near(const char *word, const char *name);

/* The hosted runner's name (NULL, the default: bare metal). It changes how
 * the notes tell a reader to ask for the options or the benchmarks, and its
 * notes about an unknown word add what the run used instead. */
void options_set_runner(const char *name);
/* "boot with 'list'" on bare metal, "`cyclekit-hosted64 list`" hosted. */
void options_ask(const char *what, char *buf, size_t size);

/* The user's mistakes in the options, as reported (options_report_problems:
 * an unknown word, a bad value; not an option of the other platform) or
 * noted later by the run (sweep= naming no benchmark). The hosted runner
 * repeats them on stderr and exits 2; bare metal only notes them and runs on.
 * options_mistake(i): the text of one of the first 4, NULL past them. */
void options_note_mistake(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int options_mistakes(void);
const char *options_mistake(int i);

#endif
