/* Modes: clusters of values separated by gaps (stats_checks.h). A
 * histogram's peaks would depend on its bin width; gaps in the sorted
 * values need no bins and are exact in integers. */
#include <stddef.h>
#include "lib/fmt.h"
#include "stats_checks.h"
#include "stats_wide.h"

/* Neighbours lo <= hi belong to different clusters when hi - lo exceeds
 * both the absolute and the relative gap (relative to hi, exactly). */
static bool splits(uint64_t lo, uint64_t hi, const struct stats_mode_rule *rule)
{
    uint64_t gap = hi - lo;
    if (gap <= rule->min_gap)
        return false;
    return wide_cmp(wide_mul_u64(gap, 1000), wide_mul_u64(hi, rule->gap_permille)) > 0;
}

static struct stats_mode mode_of(const uint64_t *x, uint32_t first, uint32_t count)
{
    struct stats_mode m = { .lo = x[first], .hi = x[first + count - 1], .count = count };
    struct wide twice = wide_add_u64(wide_from_u64(x[first + (count - 1) / 2]), x[first + count / 2]);
    m.value_x100 = wide_to_u64_sat(wide_mul_u32(twice, 50), NULL);
    return m;
}

/* Keeps mode[] ordered by count, largest first; clusters arrive in
 * ascending value, so an equal count goes after (the smaller value stays
 * first). A mode pushed off the end becomes unlisted. */
static void keep(struct stats_modes *out, struct stats_mode m)
{
    uint32_t at = 0;
    while (at < out->count && out->mode[at].count >= m.count)
        at++;
    if (at == STATS_MODES_MAX) {
        out->unlisted++;
        out->outside += m.count;
        return;
    }
    if (out->count == STATS_MODES_MAX) {
        out->unlisted++;
        out->outside += out->mode[STATS_MODES_MAX - 1].count;
        out->count--;
    }
    for (uint32_t i = out->count; i > at; i--)
        out->mode[i] = out->mode[i - 1];
    out->mode[at] = m;
    out->count++;
}

uint32_t stats_modes(const uint64_t *values, uint32_t n, const struct stats_mode_rule *rule,
                     uint64_t *scratch, struct stats_modes *out)
{
    if (!out)
        return 0;
    *out = (struct stats_modes){ 0 };
    if (!values || !rule || !scratch || n == 0)
        return 0;
    if (scratch != values)
        for (uint32_t i = 0; i < n; i++)
            scratch[i] = values[i];
    stats_sort(scratch, n);
    out->n = n;
    for (uint32_t i = 0; i < n;) {
        uint32_t end = i + 1;
        while (end < n && !splits(scratch[end - 1], scratch[end], rule))
            end++;
        uint32_t count = end - i;
        if ((uint64_t)count * 1000 >= (uint64_t)rule->min_share_permille * n && count >= rule->min_count)
            keep(out, mode_of(scratch, i, count));
        else
            out->outside += count;
        i = end;
    }
    return out->count + out->unlisted;
}

void stats_judge_modes(const struct stats_modes *m, uint64_t per, struct stats_judgement *j)
{
    if (m->count + m->unlisted < 2)
        return;
    char text[STATS_REASON_MAX];
    uint32_t len = (uint32_t)ksnprintf(text, sizeof text, "%u modes:", (unsigned)(m->count + m->unlisted));
    for (uint32_t i = 0; i < m->count && len < sizeof text; i++) {
        char value[24];
        stats_reason_x100(value, sizeof value, m->mode[i].value_x100, per);
        len += (uint32_t)ksnprintf(text + len, sizeof text - len, "%s %s (%u of %u)", i ? "," : "", value,
                                   (unsigned)m->mode[i].count, (unsigned)m->n);
    }
    if (m->unlisted && len < sizeof text)
        ksnprintf(text + len, sizeof text - len, " and %u more", (unsigned)m->unlisted);
    stats_judgement_raise(j, STATS_VERDICT_UNSTABLE, STATS_FLAG_MODES, "%s", text);
}
