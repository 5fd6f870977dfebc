/* The cycle reference of a run against the start-up rate (stats_checks.h):
 * the ADD chain timed with the body's own U can hide under the loop's
 * branch at small U and then reads far fewer ticks per ADD. */
#include <stddef.h>
#include "lib/fmt.h"
#include "stats_checks.h"
#include "stats_wide.h"

bool stats_rate_check(int64_t run_x100, int64_t startup_x100, uint32_t tol_permille,
                      struct stats_rate *out)
{
    if (tol_permille == 0)
        tol_permille = STATS_RATE_TOL_PERMILLE;
    *out = (struct stats_rate){ .run_x100 = run_x100, .startup_x100 = startup_x100 };
    if (run_x100 <= 0 || startup_x100 <= 0)
        return false;
    uint64_t run = (uint64_t)run_x100, startup = (uint64_t)startup_x100;
    uint64_t gap = run > startup ? run - startup : startup - run;
    uint64_t big = run > startup ? run : startup;
    out->agree = wide_cmp(wide_mul_u64(gap, 1000), wide_mul_u64(big, tol_permille)) <= 0;
    return out->agree;
}

void stats_judge_rate(const struct stats_rate *rate, struct stats_judgement *j)
{
    if (rate->agree)
        return;
    char run[24], startup[24];
    kfixed(run, sizeof run, rate->run_x100, 2);
    kfixed(startup, sizeof startup, rate->startup_x100, 2);
    stats_judgement_raise(j, STATS_VERDICT_UNSTABLE, STATS_FLAG_REF_RATE,
                          "the cycle reference ran at %s ticks per step here, %s at start-up", run,
                          startup);
}
