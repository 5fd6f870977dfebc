/* The "sample" and "cycles" records (docs/log-format.md, "Samples"): where
 * a sampled run's interrupts fell, by byte offset in one copy of the body,
 * with the copy's bytes so a reader can name the instructions; and a
 * cycle-by-cycle run's timeline. The readable lines are formats/text_sample.c's. */
#include "harness/sample.h"
#include "lib/fmt.h"
#include "record/log.h"
#include "write.h"

static void hex_bytes(const char *key, const uint8_t *p, uint32_t n)
{
    static char hex[2 * SAMPLE_OFFSETS_MAX + 1];
    static const char digits[] = "0123456789abcdef";
    uint32_t k = 0;
    for (uint32_t i = 0; p && i < n && i < SAMPLE_OFFSETS_MAX; i++) {
        hex[k++] = digits[p[i] >> 4];
        hex[k++] = digits[p[i] & 15];
    }
    hex[k] = '\0';
    rec_str(key, hex);
}

static void head(const char *name, const struct sample_result *r)
{
    rec_str("name", name);
    rec_str("source", r->source == SAMPLE_TIME ? "time" : "event");
    rec_str("event", r->label);
    rec_u64("period", r->period);
    rec_str("unit", r->unit ? r->unit : r->source == SAMPLE_TIME ? "us" : "events");
    rec_bool("nmi", r->nmi);
}

static void offsets(const struct sample_profile *p, uint32_t size)
{
    rec_arr_open("offsets");
    for (uint32_t off = 0; off < size && off < SAMPLE_OFFSETS_MAX; off++) {
        if (!p->at[off])
            continue;
        rec_obj_open(NULL);
        rec_u64("offset", off);
        rec_u64("samples", p->at[off]);
        rec_obj_close();
    }
    rec_arr_close();
}

void write_sample(const char *name, unsigned mode, const struct sample_result *r)
{
    rec_open("sample");
    head(name, r);
    if (r->failed) {
        rec_str("failed", r->failed);
        rec_close();
        return;
    }
    const struct sample_profile *p = &r->profile;
    rec_str("delivery", r->end.delivery ? r->end.delivery : "");
    rec_u64("runs", r->runs);
    rec_u64("loops", r->loops);
    rec_u64("samples", p->total);
    rec_u64("body", p->body);
    rec_u64("loop", p->loop);
    rec_u64("handler", p->handler);
    rec_u64("elsewhere", p->elsewhere);
    rec_u64("lost", sample_buf.lost);
    rec_bool("storm", r->end.storm);
    rec_bool("capped", r->end.capped);
    if (r->end.stopped)
        rec_str("stopped", r->end.stopped);
    else
        rec_null("stopped");
    if (r->skid_known) {
        rec_i64("skid", r->skid);
        rec_null("skid_why");
    } else {
        rec_null("skid");
        rec_str("skid_why", r->skid_why ? r->skid_why : "not measured");
    }
    rec_u64("copies", r->layout.copies);
    rec_u64("copy_bytes", r->layout.copy_size);
    hex_bytes("bytes", r->copy, r->layout.copy_size);
    rec_u64("mode", mode == 64 ? 64 : 32);
    offsets(p, r->layout.copy_size);
    rec_close();
}

static const char *where_name(enum sample_where w)
{
    return w == SAMPLE_IN_BODY ? "body" : w == SAMPLE_IN_LOOP ? "loop"
         : w == SAMPLE_IN_HANDLER ? "handler" : "elsewhere";
}

static void step(const struct cycles_result *c, const struct cycle_step *s)
{
    rec_obj_open(NULL);
    rec_u64("k", s->k);
    rec_bool("taken", s->taken);
    if (!s->taken) {
        rec_str("where", "none");
        rec_obj_close();
        return;
    }
    rec_i64("retired", (int64_t)(s->retired - c->base));
    uint32_t offset = 0, copy = 0;
    enum sample_where w = sample_locate(&c->layout, s->ip, &offset, &copy);
    rec_str("where", where_name(w));
    if (w == SAMPLE_IN_BODY) {
        rec_u64("copy", copy);
        rec_u64("offset", offset);
    }
    rec_obj_close();
}

void write_cycles(const char *name, unsigned mode, const struct cycles_result *c)
{
    rec_open("cycles");
    rec_str("name", name);
    if (c->failed) {
        rec_str("failed", c->failed);
        rec_close();
        return;
    }
    rec_u64("n", c->n);
    rec_u64("base", c->base);
    rec_u64("copies", c->layout.copies);
    rec_u64("copy_bytes", c->layout.copy_size);
    hex_bytes("bytes", (const uint8_t *)(uintptr_t)c->layout.entry, c->layout.copy_size);
    rec_u64("mode", mode == 64 ? 64 : 32);
    rec_arr_open("steps");
    for (uint32_t i = 0; i < c->n; i++)
        step(c, &c->steps[i]);
    rec_arr_close();
    rec_close();
}
