/* Events by name or raw code, and what each counter may count. */
#include "pmu.h"

static char upper(char c)
{
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}

/* Compares a NUL-terminated name with text[0..len). */
static bool name_equal(const char *name, const char *text, unsigned len)
{
    unsigned i = 0;
    for (; i < len; i++) {
        if (name[i] == '\0' || upper(name[i]) != upper(text[i]))
            return false;
    }
    return name[i] == '\0';
}

bool pmu_event_available(const struct pmu_driver *d, const struct pmu_event *e)
{
    if ((e->flags & PMU_EV_MMX) && !cpu_has(d->cpu, FEAT_MMX))
        return false;
    if (d->kind == PMU_ARCH && e->arch_bit >= 0 && ((d->unavailable >> e->arch_bit) & 1))
        return false;
    return true;
}

static const struct pmu_event *find_n(const struct pmu_driver *d, const char *text, unsigned len)
{
    for (unsigned i = 0; i < d->nevents; i++) {
        const struct pmu_event *e = &d->events[i];
        if (name_equal(e->name, text, len) && pmu_event_available(d, e))
            return e;
    }
    for (unsigned i = 0; d->fixed_events && i < d->fixed_counters; i++) {
        if (name_equal(d->fixed_events[i].name, text, len))
            return &d->fixed_events[i];
    }
    return 0;
}

const struct pmu_event *pmu_event_find(const struct pmu_driver *d, const char *name)
{
    unsigned len = 0;
    while (name[len])
        len++;
    return find_n(d, name, len);
}

struct pmu_eventsel pmu_eventsel_of(const struct pmu_event *e)
{
    struct pmu_eventsel s = { 0 };
    s.name = e->name;
    s.code = e->code;
    s.umask = e->umask;
    s.counters = e->counters;
    s.flags = PMU_OS | PMU_USR;
    if (e->flags & PMU_EV_DURATION)
        s.flags |= PMU_DURATION;
    return s;
}

static unsigned max_code(const struct pmu_driver *d)
{
    switch (d->kind) {
    case PMU_P5:
        return 0x3f; /* 6-bit ES field */
    case PMU_AMD:
        /* EventSelect[11:8] in PerfEvtSel bits 35:32 from family 10h. */
        return d->cpu->family >= 0x10 ? 0xfff : 0xff;
    default:
        return 0xff;
    }
}

/* The architectural event with this code/umask that CPUID marks missing. */
static bool arch_unavailable(const struct pmu_driver *d, const struct pmu_eventsel *ev)
{
    for (unsigned i = 0; i < pmu_events_arch_count; i++) {
        const struct pmu_event *e = &pmu_events_arch[i];
        if (e->code == ev->code && e->umask == ev->umask)
            return (d->unavailable >> e->arch_bit) & 1;
    }
    return false;
}

bool pmu_event_allowed(const struct pmu_driver *d, unsigned counter, const struct pmu_eventsel *ev)
{
    if (!ev || !pmu_counter_valid(d, counter))
        return false;
    if (PMU_IS_FIXED(counter)) {
        /* A fixed counter counts one thing; the request must be that thing. */
        const struct pmu_event *f = &d->fixed_events[counter - PMU_FIXED_BASE];
        return ev->code == f->code && ev->umask == f->umask && !(ev->flags & ~(PMU_OS | PMU_USR));
    }
    if (ev->counters && !((ev->counters >> counter) & 1))
        return false;
    if (ev->code > max_code(d))
        return false;
    if (d->kind == PMU_P5) {
        /* CESR has no unit mask, counter mask, edge or invert. */
        if (ev->umask || ev->cmask || (ev->flags & (PMU_EDGE | PMU_INV)))
            return false;
    } else if (ev->flags & PMU_DURATION) {
        return false;
    }
    if (d->kind == PMU_ARCH && (ev->code == 0 || arch_unavailable(d, ev)))
        return false; /* code 0: the fixed-only pseudo events (REF_TSC, SLOTS) */
    return true;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = upper(c);
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "0x1f" (the 0x is required) over text[0..len). */
static bool parse_hex(const char *text, unsigned len, unsigned *out)
{
    if (len < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X') || len > 2 + 4)
        return false;
    unsigned v = 0;
    for (unsigned i = 2; i < len; i++) {
        int h = hex_digit(text[i]);
        if (h < 0)
            return false;
        v = v * 16 + (unsigned)h;
    }
    *out = v;
    return true;
}

/* Applies one ":suffix": a unit mask 0xUU, or u (user only), k (kernel
 * only), dur (P5 clock mode). */
static bool apply_suffix(struct pmu_eventsel *s, const char *t, unsigned len)
{
    unsigned v;
    if (parse_hex(t, len, &v) && v <= 0xff) {
        s->umask = (uint8_t)v;
        return true;
    }
    if (name_equal("u", t, len)) {
        s->flags = (uint8_t)((s->flags & ~PMU_OS) | PMU_USR);
        return true;
    }
    if (name_equal("k", t, len)) {
        s->flags = (uint8_t)((s->flags & ~PMU_USR) | PMU_OS);
        return true;
    }
    if (name_equal("dur", t, len)) {
        s->flags |= PMU_DURATION;
        return true;
    }
    return false;
}

int pmu_event_parse(const struct pmu_driver *d, const char *text, struct pmu_eventsel *out)
{
    unsigned len = 0;
    while (text[len] && text[len] != ':')
        len++;
    if (len == 0)
        return PMU_ERR_PARSE;

    struct pmu_eventsel s = { 0 };
    unsigned code;
    const struct pmu_event *e = find_n(d, text, len);
    if (e) {
        s = pmu_eventsel_of(e);
    } else if (parse_hex(text, len, &code)) {
        s.code = (uint16_t)code;
        s.flags = PMU_OS | PMU_USR;
    } else {
        return PMU_ERR_PARSE;
    }

    const char *p = text + len;
    while (*p == ':') {
        p++;
        unsigned n = 0;
        while (p[n] && p[n] != ':')
            n++;
        if (!apply_suffix(&s, p, n))
            return PMU_ERR_PARSE;
        p += n;
    }

    /* Some counter of this driver must be able to count it. */
    bool any = false;
    for (unsigned c = 0; c < d->gp_counters && !any; c++)
        any = pmu_event_allowed(d, c, &s);
    for (unsigned i = 0; i < d->fixed_counters && !any; i++)
        any = pmu_event_allowed(d, PMU_FIXED(i), &s);
    if (!any)
        return PMU_ERR_EVENT;
    *out = s;
    return 0;
}
