/* Reading the ring buffer a sampling perf event writes (sample_perf.h).
 * The layout is perf_event_open(2)'s "MMAP layout": after the metadata
 * page, a data area of 2^n pages holding records, each a struct
 * perf_event_header (type, misc, size: the whole record's bytes) followed by
 * its body. Linux keeps records 8-byte aligned, but a record may run past
 * the area's end and continue at its start, so every read here goes byte by
 * byte modulo the size. The bodies read (sample_id_all off, so no trailing
 * sample_id):
 *   PERF_RECORD_SAMPLE (sample_type PERF_SAMPLE_IP): u64 ip
 *   PERF_RECORD_LOST: u64 id, u64 lost
 * Every other type (PERF_RECORD_THROTTLE and UNTHROTTLE, which Linux writes
 * unasked) is skipped by its size. */
#include <linux/perf_event.h>
#include <string.h>

#include "sample_perf.h"

/* The largest body read: LOST's two u64s. */
#define BODY_MAX 16u

static void ring_copy(void *to, const volatile uint8_t *data, uint64_t size, uint64_t at, size_t n)
{
    uint8_t *out = to;
    for (size_t i = 0; i < n; i++)
        out[i] = data[(at + i) & (size - 1)];
}

/* One record's body into c (hit() for a sample). */
static void take(const struct perf_event_header *h, const uint8_t *body, void (*hit)(uint64_t ip),
                 struct perf_ring_count *c)
{
    uint64_t v[2];
    memcpy(v, body, sizeof v);
    switch (h->type) {
    case PERF_RECORD_SAMPLE:
        c->samples++;
        hit(v[0]);
        return;
    case PERF_RECORD_LOST: c->lost += v[1]; return;
    case PERF_RECORD_THROTTLE: c->throttled++; return;
    default: c->other++; return;
    }
}

/* The body's bytes each type needs (0: none read). */
static size_t body_needed(uint32_t type)
{
    switch (type) {
    case PERF_RECORD_SAMPLE: return 8;
    case PERF_RECORD_LOST: return 16;
    default: return 0;
    }
}

uint64_t perf_ring_read(const volatile uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
                        void (*hit)(uint64_t ip), struct perf_ring_count *c)
{
    while (head - tail >= sizeof(struct perf_event_header)) {
        struct perf_event_header h;
        uint8_t body[BODY_MAX] = { 0 };
        ring_copy(&h, data, size, tail, sizeof h);
        size_t need = body_needed(h.type);
        /* A size shorter than its own header or its type's body, or longer
         * than what was written, is no record Linux writes: stop rather
         * than read on from a wrong place. */
        if (h.size < sizeof h + need || h.size > head - tail) {
            c->torn = true;
            return tail;
        }
        ring_copy(body, data, size, tail + sizeof h, need);
        take(&h, body, hit, c);
        tail += h.size;
    }
    if (tail != head) /* less than a header left over */
        c->torn = true;
    return tail;
}
