/* The registry of microarchitectures (the ck_uarchs section) and the lookups
 * from a CPU's identity and a benchmark's name to an expectation. */
#include "cpu/cpu_core.h"
#include "cpu/cpu_models.h"
#include "lib/kstring.h"
#include "llvm_model.h"
#include "uarch.h"

/* Weak: a program without microarchitecture files has no such section. */
extern const struct uarch __start_ck_uarchs[] __attribute__((weak));
extern const struct uarch __stop_ck_uarchs[] __attribute__((weak));

const struct uarch *uarch_begin(void) { return __start_ck_uarchs; }
const struct uarch *uarch_end(void) { return __stop_ck_uarchs; }

bool uarch_range_holds(const struct uarch_range *r, const struct cpu_info *c)
{
    if (r->no_cpuid)
        return c->generation == CPU_GEN_486_NO_CPUID;
    return c->generation == CPU_GEN_CPUID && r->vendor == c->vendor && r->family == c->family &&
           c->model >= r->first && c->model <= r->last && c->stepping >= r->stepping_first &&
           c->stepping <= r->stepping_last;
}

uint32_t uarch_range_span(const struct uarch_range *r)
{
    if (r->no_cpuid)
        return 1;
    uint32_t models = (uint32_t)(r->last - r->first + 1);
    return models * (uint32_t)(r->stepping_last - r->stepping_first + 1);
}

/* The span of the narrowest of u's ranges that hold c; 0 when none holds c. */
static uint32_t span_holding(const struct uarch *u, const struct cpu_info *c)
{
    uint32_t best = 0;
    for (unsigned i = 0; i < u->nranges; i++) {
        uint32_t span = uarch_range_holds(&u->ranges[i], c) ? uarch_range_span(&u->ranges[i]) : 0;
        if (span && (!best || span < best))
            best = span;
    }
    return best;
}

void uarch_match(const struct cpu_info *c, struct uarch_match *m)
{
    uint32_t spans[UARCH_MATCH_MAX];
    kmemset(m, 0, sizeof *m);
    /* The files' ranges are model numbers: not where the features named the
     * core against the model number (cpu/cpu_core.c). */
    bool by_model = c->named_by == CPU_NAMED_BY_MODEL;
    for (const struct uarch *u = uarch_begin(); by_model && u < uarch_end(); u++) {
        uint32_t span = span_holding(u, c);
        if (!span || m->n == UARCH_MATCH_MAX)
            continue;
        /* Insert by span, narrowest first; an equal span keeps registry order. */
        unsigned at = m->n;
        while (at > 0 && spans[at - 1] > span) {
            spans[at] = spans[at - 1];
            m->u[at] = m->u[at - 1];
            at--;
        }
        spans[at] = span;
        m->u[at] = u;
        m->n++;
    }
    m->uncertain = uarch_identity_uncertain(c, NULL, 0);
    const struct uarch *model = uarch_llvm_of(c);
    if (model && m->n < UARCH_MATCH_MAX)
        m->u[m->n++] = model;
}

const struct uarch *uarch_llvm_of(const struct cpu_info *c)
{
    /* The model table's LLVM CPU, or the one of the core the features named. */
    const char *name = c->generation == CPU_GEN_CPUID ? cpu_core_llvm(c) : NULL;
    const struct llvm_model *l = name ? llvm_model_named(name) : NULL;
    if (!l || uarch_identity_uncertain(c, NULL, 0))
        return NULL;
    return &l->u;
}

static bool starts_with(const char *s, const char *prefix)
{
    while (*prefix && *s == *prefix)
        s++, prefix++;
    return !*prefix;
}

static bool contains(const char *s, const char *word)
{
    for (; *s; s++)
        if (starts_with(s, word))
            return true;
    return false;
}

const char *uarch_source_kind(const char *source)
{
    if (!source)
        return "-";
    if (starts_with(source, "LLVM "))
        return "LLVM";
    if (kstrcmp(source, "the benchmark file") == 0)
        return "file";
    return contains(source, " model") ? "model" : "cited";
}

const struct uarch *uarch_of(const struct cpu_info *c)
{
    struct uarch_match m;
    uarch_match(c, &m);
    return m.n ? m.u[0] : NULL;
}

const char *uarch_name(const struct uarch *u) { return u ? u->name : "none"; }

const struct uarch_expect *uarch_table_row(const struct uarch *u, const char *bench)
{
    for (unsigned i = 0; i < u->ntable; i++)
        if (kstrcmp(u->table[i].bench, bench) == 0)
            return &u->table[i];
    return NULL;
}

const struct uarch_expect *uarch_expect_for(const struct uarch_match *m, const char *bench,
                                            const struct uarch **from)
{
    if (m->uncertain)
        return NULL;
    for (unsigned i = 0; i < m->n; i++) {
        const struct uarch_expect *e = uarch_table_row(m->u[i], bench);
        if (e) {
            if (from)
                *from = m->u[i];
            return e;
        }
    }
    return NULL;
}

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static bool same_name(const char *n, const char *name)
{
    size_t i = 0;
    while (n[i] && name[i] && (lower(n[i]) == lower(name[i]) || (n[i] == ' ' && name[i] == '_')))
        i++;
    return !n[i] && !name[i];
}

const struct uarch *uarch_named(const char *name)
{
    for (const struct uarch *u = uarch_begin(); u < uarch_end(); u++)
        if (same_name(u->name, name))
            return u;
    for (unsigned i = 0; i < llvm_model_count; i++)
        if (same_name(llvm_models[i].u.name, name))
            return &llvm_models[i].u;
    return NULL;
}
