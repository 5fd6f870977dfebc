/* Every benchmark's name, and the nearest ones to a mistyped word. */
#include "bench_names.h"
#include "harness/bench_registry.h"
#include "harness/bench_smp.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "load/loaded.h"
#include "options/option.h"

unsigned bench_all_count(void) { return bench_count() + loaded_count(); }

const struct bench *bench_all_at(unsigned i)
{
    return i < bench_count() ? bench_begin() + i : loaded_at(i - bench_count());
}

/* Adds a name `d` edits from `word` to the suggestion, at most 3. */
static void suggest(const char *word, const char *name, unsigned d, char *buf, size_t size, unsigned *n)
{
    if (*n == 3 || !option_near(word, name) || option_edit_distance(word, name) != d)
        return;
    size_t len = kstrlen(buf);
    ksnprintf(buf + len, size - len, "%s'%s'", *n ? ", " : "; did you mean ", name);
    (*n)++;
}

void bench_nearest(const char *words, char *buf, size_t size)
{
    char word[64];
    unsigned n = 0;
    buf[0] = '\0';
    for (unsigned d = 1; d <= 2 && !n; d++) /* the nearest only: one edit, else two */
        for (const char *p = words; (p = kword(p, ",", word, sizeof word)) != NULL;) {
            bool glob = false;
            for (const char *c = word; *c; c++)
                glob |= *c == '*' || *c == '?' || *c == '[';
            if (glob)
                continue;
            for (unsigned i = 0; i < bench_all_count(); i++)
                suggest(word, bench_all_at(i)->name, d, buf, size, &n);
            for (const struct smp_bench *b = smp_bench_begin(); b < smp_bench_end(); b++)
                suggest(word, b->name, d, buf, size, &n);
        }
    if (n) {
        size_t len = kstrlen(buf);
        ksnprintf(buf + len, size - len, "?");
    }
}
