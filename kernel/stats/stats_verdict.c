/* The judgement of one result: verdict, flags, reason (stats_verdict.h). */
#include <stdarg.h>
#include <stddef.h>
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "stats.h"
#include "stats_verdict.h"

static const struct {
    const char *name, *legend;
} flag_text[STATS_FLAG_COUNT] = {
    { "negatives", "more than 5 % of the samples had t(2U) < t(U)" },
    { "clamped", "the median difference was negative and is shown as 0" },
    { "few-samples", "too few samples to judge stability" },
    { "ensembles", "the sample ensembles disagree (minimum or median)" },
    { "short", "a sample spans too few steps of its time base" },
    { "modes", "the samples (or reruns) fall into two or more clusters" },
    { "non-linear", "the cost per copy changes with the number of copies" },
    { "ref-rate", "the cycle reference disagrees with the start-up rate" },
};

void stats_judgement_start(struct stats_judgement *j)
{
    j->verdict = STATS_VERDICT_STABLE;
    j->flags = 0;
    j->reason[0] = '\0';
}

void stats_judgement_raise(struct stats_judgement *j, enum stats_verdict v, enum stats_flag flag,
                           const char *fmt, ...)
{
    if (v > j->verdict)
        j->verdict = v;
    j->flags |= (uint32_t)flag;
    size_t len = kstrlen(j->reason);
    size_t room = sizeof j->reason - len;
    if (room < 8) /* already cut short ("..."): nothing more fits */
        return;
    if (len) {
        ksnprintf(j->reason + len, room, "; ");
        len += 2;
        room -= 2;
    }
    va_list ap;
    va_start(ap, fmt);
    int want = kvsnprintf(j->reason + len, room, fmt, ap);
    va_end(ap);
    if (want >= 0 && (size_t)want >= room) /* cut: say so instead of ending mid-word silently */
        ksnprintf(j->reason + sizeof j->reason - 4, 4, "...");
}

void stats_reason_x100(char *buf, uint32_t size, uint64_t x100, uint64_t per)
{
    uint64_t v = per > 1 ? stats_div_round(x100, per) : x100;
    kfixed(buf, size, v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v, 2);
}

const char *stats_verdict_name(enum stats_verdict v)
{
    switch (v) {
    case STATS_VERDICT_STABLE: return "stable";
    case STATS_VERDICT_NOT_JUDGED: return "not judged";
    case STATS_VERDICT_UNSTABLE: return "unstable";
    }
    return "unknown";
}

/* Index of a single-bit flag, or -1. */
static int flag_index(uint32_t flag)
{
    for (int i = 0; i < STATS_FLAG_COUNT; i++)
        if (flag == (1u << i))
            return i;
    return -1;
}

const char *stats_flag_name(uint32_t flag)
{
    int i = flag_index(flag);
    return i < 0 ? NULL : flag_text[i].name;
}

const char *stats_flag_legend(uint32_t flag)
{
    int i = flag_index(flag);
    return i < 0 ? NULL : flag_text[i].legend;
}
