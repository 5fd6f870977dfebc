/* The "timer" record: how the counter is read and at what frequency it runs;
 * the "trust" record: whether its timings can be believed; the "clock"
 * record: whether the real clock (APERF/MPERF) is read around the samples.
 * Their readable lines: formats/text_timing.c; the screen's trust verdict:
 * formats/screen.c. */
#include "record/log.h"
#include "write.h"

void write_timer(const struct timer_info *t)
{
    rec_open("timer");
    rec_str("mode", read_mode_name(t->mode));
    rec_str("why", t->why);
    rec_u64("hz", t->hz);
    rec_str("hz_source", t->hz_source);
    rec_u64("cpuid15_hz", t->cpuid_hz);
    rec_u64("cpuid16_base_mhz", t->cpuid_base_mhz);
    rec_bool("invariant_tsc", t->invariant);
    rec_close();
}

void write_trust(const struct trust *t)
{
    rec_open("trust");
    rec_bool("trusted", t->trusted);
    rec_str("why", t->why);
    if (t->add_known)
        rec_fixed("add_ticks", t->add_ticks_x100, 2);
    else
        rec_null("add_ticks");
    rec_str("cycles", t->cycles_exact ? "exact" : t->add_known ? "estimate" : "unknown");
    rec_close();
    log_tally_timer(t->trusted); /* the end record and the closing line repeat it */
}

void write_clock(const struct aperf_state *a)
{
    rec_open("clock");
    rec_bool("aperf", a->usable);
    rec_str("why", a->why ? a->why : "");
    if (a->fault)
        rec_hex("fault", (uint64_t)(uint32_t)a->fault);
    rec_close();
}
