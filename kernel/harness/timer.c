#include "cpu/cpu.h"
#include "measure.h"
#include "options/settings.h"
#include "record/log.h"
#include "timer.h"

struct timer_info timer;

const char *read_mode_name(enum read_mode m)
{
    switch (m) {
    case READ_CPUID: return "cpuid+rdtsc";
    case READ_RDTSCP: return "lfence+rdtsc / rdtscp+lfence";
    case READ_LFENCE: return "lfence+rdtsc+lfence";
    case READ_PIT: return "pit channel 2";
    }
    return "?";
}

/* Why a mode cannot be used here (NULL when it can). */
static const char *mode_unusable(enum read_mode m, const struct timer_platform *tp)
{
    bool tsc = cpu_has(cpu, FEAT_TSC);
    switch (m) {
    case READ_CPUID: return tsc ? NULL : "no TSC (CPUID.1:EDX[4])";
    case READ_RDTSCP:
        return !tsc ? "no TSC" : !cpu_has(cpu, FEAT_SSE2) ? "no LFENCE (SSE2)"
             : !cpu_has(cpu, FEAT_RDTSCP) ? "no RDTSCP (CPUID.80000001:EDX[27])" : NULL;
    case READ_LFENCE: return !tsc ? "no TSC" : !cpu_has(cpu, FEAT_SSE2) ? "no LFENCE (SSE2)" : NULL;
    case READ_PIT: return tp->pit_free_run ? NULL : "no access to the PIT here";
    }
    return "unknown mode";
}

static enum read_mode choose_auto(const char **why)
{
    if (!cpu_has(cpu, FEAT_TSC)) {
        *why = "no time-stamp counter: PIT channel 2 instead (838 ns resolution)";
        return READ_PIT;
    }
    /* LFENCE orders RDTSC on Intel; on AMD before Zen it need not. */
    if (cpu->vendor == VENDOR_INTEL && cpu_has(cpu, FEAT_SSE2)) {
        if (cpu_has(cpu, FEAT_RDTSCP)) {
            *why = "Intel with SSE2 and RDTSCP";
            return READ_RDTSCP;
        }
        *why = "Intel with SSE2, no RDTSCP";
        return READ_LFENCE;
    }
    /* AMD family 17h on: LFENCE is dispatch-serializing (AMD, "Software Techniques for
     * Managing Speculation on AMD Processors", rev. 2.0, 2018, mitigation G-2), so it
     * orders RDTSC as on Intel. Without RDTSCP (a bhyve guest hides it) LFENCE reads,
     * not CPUID: every CPUID there is a VM exit, 13,500 ticks an empty run of 100 loops
     * against 190 with LFENCE, and the exits made t(2U) < t(U) now and then. */
    if ((cpu->vendor == VENDOR_AMD || cpu->vendor == VENDOR_HYGON) && cpu->family >= 0x17 &&
        cpu_has(cpu, FEAT_SSE2)) {
        *why = cpu_has(cpu, FEAT_RDTSCP) ? "AMD Zen: LFENCE is dispatch-serializing"
                                         : "AMD Zen: LFENCE is dispatch-serializing, no RDTSCP";
        return cpu_has(cpu, FEAT_RDTSCP) ? READ_RDTSCP : READ_LFENCE;
    }
    *why = "CPUID serializes (P5/P6 and CPUs without a documented serializing LFENCE)";
    return READ_CPUID;
}

static void choose_mode(const struct timer_platform *tp)
{
    const char *why;
    enum read_mode m = choose_auto(&why);
    if (settings.timer != TIMER_AUTO) {
        const char *no = mode_unusable((enum read_mode)settings.timer, tp);
        if (no) {
            log_note("warn", "timer", "timer=%s cannot be used: %s; using %s",
                        read_mode_name((enum read_mode)settings.timer), no, read_mode_name(m));
        } else {
            m = (enum read_mode)settings.timer;
            why = "chosen on the command line";
        }
    }
    if (m == READ_PIT && !tp->pit_free_run) {
        log_note("error", "timer", "no TSC and no PIT access: nothing can be timed");
        why = "no time base at all";
    }
    timer.mode = m;
    timer.why = why;
}

static void cpuid_clock(void)
{
    if (cpu->clock.crystal_hz && cpu->clock.ratio_den && cpu->clock.ratio_num)
        timer.cpuid_hz = (uint64_t)cpu->clock.crystal_hz * cpu->clock.ratio_num / cpu->clock.ratio_den;
    timer.cpuid_base_mhz = cpu->clock.base_mhz;
}

void timer_init(const struct timer_platform *tp)
{
    timer = (struct timer_info){ 0 };
    choose_mode(tp);
    timer.invariant = cpu_has(cpu, FEAT_INVARIANT_TSC);
    cpuid_clock();
    if (timer.mode == READ_PIT) {
        if (tp->pit_free_run)
            tp->pit_free_run();
        timer.hz = (uint64_t)PIT_HZ * PIT_SCALE;
        timer.hz_source = "PIT nominal, in 1/1000 ticks";
    } else if (!(tp->calibrate_tsc && tp->calibrate_tsc(&timer.hz, &timer.hz_source, cpu_is_qemu_tcg(cpu)))) {
        timer.hz = timer.cpuid_hz ? timer.cpuid_hz : (uint64_t)timer.cpuid_base_mhz * 1000000u;
        timer.hz_source = timer.cpuid_hz ? "CPUID 0x15" : timer.hz ? "CPUID 0x16 base" : "unknown";
    }
}

uint64_t timer_elapsed(uint64_t t0, uint64_t t1)
{
    if (timer.mode == READ_PIT) /* a down counter of 16 bits */
        return ((t0 - t1) & 0xffff) * PIT_SCALE;
    return t1 >= t0 ? t1 - t0 : 0;
}
