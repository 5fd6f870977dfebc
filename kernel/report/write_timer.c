/* The "timer" record: how the counter is read and at what frequency it runs;
 * the "trust" record: whether its timings can be believed; the "clock"
 * record: whether the real clock (APERF/MPERF) is read around the samples. */
#include "record/log.h"
#include "report/screen/screen.h"
#include "write.h"

static void text_mhz(const char *prefix, uint64_t hz)
{
    log_text("%s%llu.%03llu MHz", prefix, (unsigned long long)(hz / 1000000),
             (unsigned long long)(hz / 1000 % 1000));
}

void write_timer(const struct timer_info *t)
{
    log_text("\n== Timer ==\n  reads:     %s (%s)\n", read_mode_name(t->mode), t->why);
    text_mhz("  frequency: ", t->hz);
    log_text(" (%s)", t->hz_source);
    if (t->cpuid_hz)
        text_mhz(", CPUID 0x15 says ", t->cpuid_hz);
    if (t->cpuid_base_mhz)
        log_text(", CPUID 0x16 base %u MHz", (unsigned)t->cpuid_base_mhz);
    log_text("\n  invariant TSC: %s\n", t->mode == READ_PIT ? "n/a" : t->invariant ? "yes" : "no");
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
    log_text("  trust:     %s: %s\n", t->trusted ? "timings trustworthy" : "timings NOT trustworthy", t->why);
    log_text("  cycles:    %s\n", t->cycles_exact ? "exact (the P5's TSC counts core clocks)"
             : t->add_known ? "estimated from the dependent ADD chain (1 ADD = 1 cycle)" : "unknown");
    rec_open("trust");
    rec_bool("trusted", t->trusted);
    rec_str("why", t->why);
    if (t->add_known)
        rec_fixed("add_ticks", t->add_ticks_x100, 2);
    else
        rec_null("add_ticks");
    rec_str("cycles", t->cycles_exact ? "exact" : t->add_known ? "estimate" : "unknown");
    rec_close();
    screen_trust(t->trusted, t->why);
}

void write_clock(const struct aperf_state *a)
{
    log_text("  real clock: %s (%s)\n", a->usable ? "APERF/MPERF around every sample" : "none",
             a->why ? a->why : "");
    rec_open("clock");
    rec_bool("aperf", a->usable);
    rec_str("why", a->why ? a->why : "");
    if (a->fault)
        rec_hex("fault", (uint64_t)(uint32_t)a->fault);
    rec_close();
}
