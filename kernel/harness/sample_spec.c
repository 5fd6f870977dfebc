/* sample= (harness/sample.h): which interrupt, how often. The period is the
 * last field when it is a decimal number, so a raw event's own fields
 * ("0x2e:0x41", code:unit mask, hexadecimal as events= takes them) stay the
 * event's; ":nmi" at the end asks for NMI delivery. */
#include "sample.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define PERIOD_MAX 0x7fffffffu   /* -period fits a counter written 32 bits sign-extended (SDM Vol. 3B §20.2.5) */
#define TIME_US_MAX 1000000u

static bool decimal(const char *s, size_t n, uint64_t *v)
{
    if (n == 0 || n > 10)
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *v = x;
    return true;
}

/* Splits "EVENT[:PERIOD][:nmi]" into its parts in place. */
static void split(char *t, bool *nmi, bool *have_period, uint64_t *period)
{
    size_t n = kstrlen(t);
    *nmi = n >= 4 && kstrcmp(t + n - 4, ":nmi") == 0;
    if (*nmi)
        t[n -= 4] = '\0';
    char *colon = NULL;
    for (char *p = t; *p; p++)
        if (*p == ':')
            colon = p;
    *have_period = colon && decimal(colon + 1, kstrlen(colon + 1), period);
    if (*have_period)
        *colon = '\0';
}

const char *sample_spec_parse(const char *text, const struct pmu_driver *d, struct sample_spec *spec,
                              struct pmu_eventsel *sel, char *err, size_t size)
{
    char t[PMU_LABEL_MAX + 24];
    *spec = (struct sample_spec){ .source = SAMPLE_OFF, .max_samples = SAMPLE_IPS_MAX };
    if (!text || !*text)
        return NULL;
    if (kstrlen(text) >= sizeof t) {
        ksnprintf(err, size, "sample=%s: too long (an event and a period)", text);
        return err;
    }
    kstrlcpy(t, text, sizeof t);
    bool have_period;
    uint64_t period = 0;
    split(t, &spec->nmi, &have_period, &period);
    if (kstrcmp(t, "time") == 0) {
        if (spec->nmi) {
            ksnprintf(err, size, "sample=%s: ':nmi' is for counter overflows, not the timer", text);
            return err;
        }
        spec->source = SAMPLE_TIME;
        spec->period = have_period ? period : SAMPLE_DEFAULT_US;
        spec->period_given = have_period;
        if (spec->period < 1 || spec->period > TIME_US_MAX) {
            ksnprintf(err, size, "sample=%s: the period is 1 to %u microseconds", text, TIME_US_MAX);
            spec->source = SAMPLE_OFF;
            return err;
        }
        return NULL;
    }
    if (!d) {
        ksnprintf(err, size, "sample=%s: no counters here to sample on; sample=time works on any CPU", text);
        return err;
    }
    int r = pmu_event_parse(d, t, sel);
    if (r != 0) {
        ksnprintf(err, size, "sample=%s: '%s' is %s (events= takes the same names and codes); "
                  "sample=time needs no counter", text, t,
                  r == PMU_ERR_PARSE ? "neither an event name nor a raw code" : "not countable here");
        return err;
    }
    spec->period = have_period ? period : SAMPLE_DEFAULT_PERIOD;
    spec->period_given = have_period;
    if (spec->period < 1 || spec->period > PERIOD_MAX) {
        ksnprintf(err, size, "sample=%s: the period is 1 to %u events", text, PERIOD_MAX);
        return err;
    }
    spec->source = SAMPLE_EVENT;
    spec->sel = sel;
    return NULL;
}
