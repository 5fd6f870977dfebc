/* The time base: which counter is read, how it is serialized, and how many
 * ticks make a second. Chosen per CPU, said in the log (the "timer" record). */
#ifndef CK_TIMER_H
#define CK_TIMER_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/timer_source.h" /* struct timer_platform: the platform's part */
#include "timing_page.h"

enum read_mode {
    READ_CPUID = CK_READ_CPUID,   /* the values the generated code tests (timing_page.h) */
    READ_RDTSCP = CK_READ_RDTSCP,
    READ_LFENCE = CK_READ_LFENCE,
    READ_PIT = CK_READ_PIT,
};

#define PIT_HZ 1193182u
/* PIT readings are scaled to thousandths of a tick, so per-body values keep
 * their precision in the harness's two-decimal fixed point. */
#define PIT_SCALE 1000u

struct timer_info {
    enum read_mode mode;
    const char *why;          /* why this mode */
    uint64_t hz;              /* ticks per second (0: unknown) */
    const char *hz_source;    /* "PIT channel 2", "clock_gettime", "nominal" ... */
    uint64_t cpuid_hz;        /* from CPUID 0x15 (0: not available) */
    uint32_t cpuid_base_mhz;  /* from CPUID 0x16 (0: not available) */
    bool invariant;           /* CPUID 0x80000007 EDX[8] */
};

extern struct timer_info timer;

/* Chooses the mode (option timer=), calibrates, writes the "timer" record. */
void timer_init(const struct timer_platform *tp);

/* Ticks between two reads taken in the current mode. */
uint64_t timer_elapsed(uint64_t t0, uint64_t t1);

const char *read_mode_name(enum read_mode m);

#endif
