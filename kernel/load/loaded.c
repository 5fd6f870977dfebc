/* The loaded benchmarks: a fixed table of slots, each with room for the
 * largest body version 1 allows, so loading never fragments memory and a
 * serial session can replace a benchmark (same name) as often as it likes. */
#include "loaded.h"
#include "loaded_code.h"
#include "loaded_place.h"
#include "module.h"
#include "harness/bench_registry.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

struct slot {
    struct bench b;
    char name[MODULE_NAME_MAX + 1];
    char desc[MODULE_DESC_MAX + 1];
    struct bench_expect expect[BENCH_EXPECT_MAX + 1]; /* the file's; a NULL uarch ends */
    uint8_t *code;
};

static struct slot slots[LOADED_MAX];
static unsigned nslots, oldest;
static uint8_t *memory;
static size_t memory_size, slot_size;

void loaded_set_memory(uint8_t *base, size_t size)
{
    /* The top of it holds the placed copies of the body being measured. */
    size_t place = size > PLACE_AREA_BYTES ? PLACE_AREA_BYTES : 0;
    loaded_place_memory(place ? base + size - place : NULL, place);
    memory = base;
    memory_size = size - place;
    slot_size = (loaded_code_size(MODULE_INIT_MAX, MODULE_BODY_MAX) + 63) & ~(size_t)63;
}

unsigned loaded_count(void) { return nslots; }
const struct bench *loaded_at(unsigned i) { return i < nslots ? &slots[i].b : NULL; }

const struct bench *loaded_find(const char *name)
{
    for (unsigned i = 0; i < nslots; i++)
        if (kstrcmp(slots[i].name, name) == 0)
            return &slots[i].b;
    return NULL;
}

/* The slot for `name`: its own when loaded before, else the next free one. */
static struct slot *slot_for(const char *name, struct module_verdict *v)
{
    for (unsigned i = 0; i < nslots; i++)
        if (kstrcmp(slots[i].name, name) == 0) {
            v->replaced = true;
            return &slots[i];
        }
    if (nslots == LOADED_MAX) { /* full: the slot loaded longest ago */
        struct slot *s = &slots[oldest];
        oldest = (oldest + 1) % LOADED_MAX;
        kstrlcpy(v->evicted, s->name, sizeof v->evicted);
        return s;
    }
    if (!memory || (size_t)(nslots + 1) * slot_size > memory_size) {
        ksnprintf(v->why, sizeof v->why, "no executable memory for loaded code on this platform");
        return NULL;
    }
    slots[nslots].code = memory + nslots * slot_size;
    return &slots[nslots]; /* counted once its code is built */
}

static void fill(struct slot *s, const struct module_view *m, const struct loaded_code *code)
{
    kstrlcpy(s->name, m->name, sizeof s->name);
    kstrlcpy(s->desc, m->desc[0] ? m->desc : "loaded benchmark", sizeof s->desc);
    s->b = (struct bench){ .name = s->name, .desc = s->desc, .fn = code->fn,
                           .copies = code->copies, .copies_end = code->copies_end,
                           .loops = m->loops, .unroll = m->unroll, .samples = m->samples,
                           .per_body = m->copies,
                           .mode = (uint8_t)m->mode, .loaded = true, .place = loaded_place };
    kmemcpy(s->b.needs, m->needs, sizeof s->b.needs);
    kmemset(s->expect, 0, sizeof s->expect);
    kmemcpy(s->expect, m->expect, sizeof m->expect);
    for (unsigned i = 0; i < BENCH_EXPECT_MAX && s->expect[i].uarch; i++)
        s->expect[i].value.bench = s->name;
    s->b.file_expect = s->expect;
}

void loaded_add(const uint8_t *data, size_t len, const char *origin, struct module_verdict *v)
{
    static struct module_view m;
    kmemset(v, 0, sizeof *v);
    v->origin = origin;
    if (module_check(data, len, &m, v->why, sizeof v->why))
        return;
    kstrlcpy(v->name, m.name, sizeof v->name);
    v->mode = m.mode;
    v->body_len = m.body_len;
    v->init_len = m.init_len;
    if (bench_find(m.name)) {
        ksnprintf(v->why, sizeof v->why, "'%s' is the name of a built-in benchmark", m.name);
        return;
    }
    struct slot *s = slot_for(m.name, v);
    if (!s)
        return;
    struct loaded_code code;
    loaded_place_forget(); /* blocks of a body this file may replace */
    if (!loaded_code_build(m.mode, s->code, slot_size, m.init, m.init_len, m.body, m.body_len, &code)) {
        ksnprintf(v->why, sizeof v->why, "this build cannot generate %u-bit code", m.mode);
        return;
    }
    fill(s, &m, &code);
    if (s == &slots[nslots])
        nslots++;
    v->size = (unsigned)code.size;
    v->accepted = true;
}
