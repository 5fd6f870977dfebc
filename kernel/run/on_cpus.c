/* on=: which processors run each selected benchmark, one at a time (the
 * others wait in their mailboxes' PAUSE loops). Empty: the boot processor
 * alone, as always. A processor that faults or hangs in a benchmark is
 * abandoned for the rest of the run. */
#include "lib/kstring.h"
#include "lib/option.h"
#include "on_cpus.h"
#include "report/log.h"
#include "smp_phase.h"

OPTION_STR(on, "on", 128, "",
           "run each benchmark on these processors one at a time: all, N (the first N running) "
           "or APIC IDs with commas (0,2); default: the boot processor");

static bool abandoned[SMP_MAX_CPUS];

static bool in_list(uint32_t id)
{
    char word[16];
    for (const char *p = opt_on; (p = kword(p, ",", word, sizeof word)) != NULL;) {
        uint32_t v = 0;
        for (const char *c = word; *c >= '0' && *c <= '9'; c++)
            v = v * 10 + (uint32_t)(*c - '0');
        if (word[0] >= '0' && word[0] <= '9' && v == id)
            return true;
    }
    return false;
}

/* on= as written: "all", a count, or APIC IDs with commas; NULL if bad. */
static const char *shape(bool *all, bool *list, uint32_t *count)
{
    *all = kstrcmp(opt_on, "all") == 0;
    *list = false;
    *count = 0;
    if (*all)
        return 0;
    for (const char *c = opt_on; *c; c++) {
        if (*c == ',')
            *list = true;
        else if (*c >= '0' && *c <= '9')
            *count = *count * 10 + (uint32_t)(*c - '0');
        else
            return "not all, a number or a list of APIC IDs";
    }
    return 0;
}

unsigned on_targets(struct on_target *t, unsigned max)
{
    static bool said;
    const struct smp_info *s = smp_started();
    bool all, list;
    uint32_t count;
    unsigned n = 0;
    const char *bad = opt_on[0] ? shape(&all, &list, &count) : "";
    if (bad && bad[0] && !said) {
        said = true;
        log_note("warn", "cmdline", "on=%s: %s; the boot processor is used", opt_on, bad);
    }
    for (unsigned i = 0; !bad && i < s->n && n < max; i++) {
        const struct smp_cpu *c = &s->cpus[i];
        bool running = c->state == SMP_BSP || c->state == SMP_STARTED;
        bool want = all || (list ? in_list(c->apic_id) : n < count);
        if (running && want && !abandoned[i])
            t[n++] = (struct on_target){ c->state == SMP_BSP ? ON_BOOT : i, c->apic_id, c->core_type };
    }
    if (n == 0)
        t[n++] = (struct on_target){ ON_BOOT, s->bsp_apic_id, 0 };
    return n;
}

bool on_given(void)
{
    return opt_on[0] != '\0';
}

void on_abandon(unsigned slot)
{
    if (slot < SMP_MAX_CPUS)
        abandoned[slot] = true;
}
