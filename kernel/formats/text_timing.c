/* The Timer section's readable lines, from the "timer", "trust" and
 * "clock" records. */
#include "lib/kstring.h"
#include "record/log.h"
#include "formats.h"
#include "text.h"

static void mhz(const char *prefix, uint64_t hz)
{
    log_text("%s%llu.%03llu MHz", prefix, (unsigned long long)(hz / 1000000),
             (unsigned long long)(hz / 1000 % 1000));
}

static void timer(const struct record *r)
{
    const char *mode = format_str(r, "mode", "");
    int64_t hz = 0, cpuid_hz = 0, base_mhz = 0;
    format_number(r, 0, "hz", &hz);
    format_number(r, 0, "cpuid15_hz", &cpuid_hz);
    format_number(r, 0, "cpuid16_base_mhz", &base_mhz);
    log_text("\n== Timer ==\n  reads:     %s (%s)\n", mode, format_str(r, "why", ""));
    mhz("  frequency: ", (uint64_t)hz);
    log_text(" (%s)", format_str(r, "hz_source", ""));
    if (cpuid_hz)
        mhz(", CPUID 0x15 says ", (uint64_t)cpuid_hz);
    if (base_mhz)
        log_text(", CPUID 0x16 base %u MHz", (unsigned)base_mhz);
    /* The PIT (harness/timer.c's "pit channel 2") has no TSC to be invariant. */
    log_text("\n  invariant TSC: %s\n", kstrncmp(mode, "pit", 3) == 0 ? "n/a"
             : format_flag(r, "invariant_tsc") ? "yes" : "no");
}

static void trust(const struct record *r)
{
    const char *cycles = format_str(r, "cycles", "");
    log_text("  trust:     %s: %s\n", format_flag(r, "trusted") ? "timings trustworthy" : "timings NOT trustworthy",
             format_str(r, "why", ""));
    log_text("  cycles:    %s\n", !kstrcmp(cycles, "exact") ? "exact (the P5's TSC counts core clocks)"
             : !kstrcmp(cycles, "estimate") ? "estimated from the dependent ADD chain (1 ADD = 1 cycle)"
             : "unknown");
}

static void clock(const struct record *r)
{
    log_text("  real clock: %s (%s)\n", format_flag(r, "aperf") ? "APERF/MPERF around every sample" : "none",
             format_str(r, "why", ""));
}

bool text_timing(const struct record *r)
{
    if (record_is(r, "timer"))
        timer(r);
    else if (record_is(r, "trust"))
        trust(r);
    else if (record_is(r, "clock"))
        clock(r);
    else
        return false;
    return true;
}
