/* The minimum timed length of a sample, on any time base (stats_checks.h). */
#include <stddef.h>
#include "stats_checks.h"
#include "stats_wide.h"

/* ceil(min_ticks * loops / t_u), exact in 256 bits, at least loops; a
 * quotient beyond 32 bits is UINT32_MAX. */
static uint32_t loops_for(uint64_t min_ticks, uint64_t t_u, uint32_t loops)
{
    if (t_u == 0)
        return loops > UINT32_MAX / 16 ? UINT32_MAX : loops * 16;
    struct wide num = wide_add_u64(wide_mul_u64(min_ticks, loops), t_u - 1);
    struct wide q = wide_divmod_u64(num, t_u, NULL);
    uint64_t need = wide_to_u64_sat(q, NULL);
    if (need > UINT32_MAX)
        return UINT32_MAX;
    return need < loops ? loops : (uint32_t)need;
}

bool stats_sample_length(uint64_t resolution, uint32_t min_steps, uint64_t t_u, uint32_t loops,
                         struct stats_length *out)
{
    if (resolution == 0)
        resolution = 1;
    if (min_steps == 0)
        min_steps = STATS_MIN_STEPS;
    if (loops == 0) /* a run has at least one iteration */
        loops = 1;
    struct wide min = wide_mul_u64(resolution, min_steps);
    *out = (struct stats_length){ .t_u = t_u, .loops = loops };
    out->min_ticks = wide_to_u64_sat(min, NULL);
    out->long_enough = t_u >= out->min_ticks;
    out->loops_needed = out->long_enough ? loops : loops_for(out->min_ticks, t_u, loops);
    return out->long_enough;
}

void stats_judge_length(const struct stats_length *len, struct stats_judgement *j)
{
    if (len->long_enough)
        return;
    stats_judgement_raise(j, STATS_VERDICT_NOT_JUDGED, STATS_FLAG_SHORT,
                          "the timed run spans %llu ticks, below the minimum %llu: %u loops needed, %u used",
                          (unsigned long long)len->t_u, (unsigned long long)len->min_ticks,
                          (unsigned)len->loops_needed, (unsigned)len->loops);
}
