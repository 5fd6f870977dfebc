/* The run's clock is the TSC at the calibrated rate (the timer record's
 * hz), read between benchmarks, never inside a measurement. Without a TSC
 * (a 486) or a rate it is the platform's clock of whole seconds (the CMOS
 * RTC), and elapsed_by says which; with neither there is no clock:
 * elapsed_ms and eta_ms are null and the screen says "?". The estimate of the time left is the mean time of
 * the benchmarks so far times the number left: benchmarks differ, so it is
 * rough, and it says so ("~" on screen). */
#include "cpu/cpu.h"
#include "harness/timer.h"
#include "lib/div64.h"
#include "progress.h"
#include "report/write.h"

enum { CLOCK_NONE, CLOCK_TSC, CLOCK_RTC };

static struct {
    const struct platform *p;
    unsigned i, n;
    int clock;
    uint64_t start;
} run;

static bool read_tsc(uint64_t *tsc)
{
    if (!run.p || !run.p->cpu_ops || !run.p->cpu_ops->rdtsc || !cpu_has(cpu, FEAT_TSC))
        return false;
    if (timer.mode == READ_PIT || timer.hz < 1000)
        return false;
    *tsc = run.p->cpu_ops->rdtsc();
    return true;
}

void progress_start(const struct platform *p, unsigned n)
{
    run.p = p;
    run.i = 0;
    run.n = n;
    uint32_t s;
    run.clock = CLOCK_NONE;
    if (read_tsc(&run.start))
        run.clock = CLOCK_TSC;
    else if (p->wall_seconds && p->wall_seconds(&s))
        run.clock = CLOCK_RTC, run.start = s;
}

#define DAY_S 86400u

static bool elapsed_ms(uint64_t *ms)
{
    uint64_t now;
    uint32_t s;
    if (run.clock == CLOCK_TSC && read_tsc(&now) && now >= run.start) {
        *ms = u64_divmod(now - run.start, u64_divmod(timer.hz, 1000, NULL), NULL);
        return true;
    }
    if (run.clock == CLOCK_RTC && run.p->wall_seconds(&s)) {
        /* Seconds of the day: a run past midnight wraps once (a day-long
         * run of this suite is not a case). */
        *ms = (uint64_t)((s + DAY_S - (uint32_t)run.start) % DAY_S) * 1000u;
        return true;
    }
    return false;
}

static const char *elapsed_by(void)
{
    return run.clock == CLOCK_TSC ? "tsc" : run.clock == CLOCK_RTC ? "rtc" : NULL;
}

void progress_end(void)
{
    uint64_t ms = 0;
    bool have = elapsed_ms(&ms);
    write_progress_end(have, ms);
}

void progress_next(const char *name)
{
    struct run_progress pr = { .i = ++run.i, .n = run.n, .name = name, .elapsed_by = elapsed_by() };
    if (elapsed_ms(&pr.elapsed_ms)) {
        pr.have_elapsed = true;
        if (pr.i > 1) {
            pr.have_eta = true;
            pr.eta_ms = u64_divmod(pr.elapsed_ms * (run.n - pr.i + 1), pr.i - 1, NULL);
        }
    }
    write_progress(&pr);
}
