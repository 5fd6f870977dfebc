/* The hosted runner's sampling (sample_perf.c, struct platform's sampler:
 * Linux's perf_event_open(2) samples the calling thread) and the reader of
 * the ring buffer Linux writes the samples to (sample_ring.c). */
#ifndef CK_HOSTED_SAMPLE_PERF_H
#define CK_HOSTED_SAMPLE_PERF_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/sampler.h"

extern const struct platform_sampler hosted_sampler;
/* hosted_sampler's collect: reads the samples Linux wrote so far into
 * sample_hit() (harness/sample.h) and gives their room in the ring back,
 * while the event goes on; stop() reads the rest. Called between the body's
 * runs, it lets the sampled run see its samples come (sample_buf.n). */
void hosted_sample_drain(void);

/* What one pass over the ring's records found. */
struct perf_ring_count {
    uint32_t samples;      /* PERF_RECORD_SAMPLE records, each handed to hit() */
    uint64_t lost;         /* samples Linux dropped, as its PERF_RECORD_LOST records count them */
    uint32_t throttled;    /* PERF_RECORD_THROTTLE records: Linux stopped the event for a while */
    uint32_t other;        /* records of any other type, skipped */
    bool torn;             /* a record's size made no sense: reading stopped there */
};

/* Reads the records in [tail, head) of the ring's data area (data, size
 * bytes, a power of two; tail and head are the running byte offsets of
 * struct perf_event_mmap_page, taken modulo size), in the order Linux wrote
 * them, records that wrap past the area's end included. Each sample's
 * instruction pointer (the event was opened with sample_type PERF_SAMPLE_IP
 * alone) goes to hit(). Adds to *c; returns where reading stopped (head,
 * unless torn). */
uint64_t perf_ring_read(const volatile uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
                        void (*hit)(uint64_t ip), struct perf_ring_count *c);

#endif
