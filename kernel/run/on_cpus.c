/* on=: which processors run each selected benchmark, one at a time (the
 * others wait in their mailboxes: halted on bare metal, spinning then
 * asleep hosted). Not given: the boot processor alone, as always --
 * except on a hybrid CPU (issue 12: "the
 * default runs each benchmark once per core type"), where one processor of
 * each core type runs it: the boot processor for its own type, the first
 * started one of each other type. The core type is CPUID leaf 1AH
 * EAX[31:24], 20H Atom, 40H Core (SDM Vol. 2A, CPUID, leaf 1AH). A
 * processor that faults or hangs in a benchmark is abandoned for the rest
 * of the run. */
#include "cpu/topology/cpu_topology.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "options/settings.h"
#include "on_cpus.h"
#include "record/log.h"
#include "smp_phase.h"

static bool left_out[SMP_MAX_CPUS]; /* abandoned processors, by slot */
static bool named; /* the last on_targets' results name their processor */

static bool in_list(const char *on_opt, uint32_t id)
{
    char word[16];
    for (const char *p = on_opt; (p = kword(p, ",", word, sizeof word)) != NULL;) {
        uint32_t v = 0;
        for (const char *c = word; *c >= '0' && *c <= '9'; c++)
            v = v * 10 + (uint32_t)(*c - '0');
        if (word[0] >= '0' && word[0] <= '9' && v == id)
            return true;
    }
    return false;
}

/* on= as written: "all", a count, or APIC IDs with commas; NULL if bad. */
static const char *shape(const char *on_opt, bool *all, bool *list, uint32_t *count)
{
    *all = kstrcmp(on_opt, "all") == 0;
    *list = false;
    *count = 0;
    if (*all)
        return 0;
    for (const char *c = on_opt; *c; c++) {
        if (*c == ',')
            *list = true;
        else if (*c >= '0' && *c <= '9')
            *count = *count * 10 + (uint32_t)(*c - '0');
        else
            return "not all, a number or a list of APIC IDs";
    }
    return 0;
}

static bool running(const struct smp_cpu *c)
{
    return c->state == SMP_BSP || c->state == SMP_STARTED;
}

static unsigned type_of(const struct smp_cpu *c, unsigned bsp_type)
{
    return c->state == SMP_BSP ? bsp_type : c->core_type;
}

static struct on_target target(const struct smp_info *s, unsigned i, unsigned bsp_type)
{
    const struct smp_cpu *c = &s->cpus[i];
    return (struct on_target){ c->state == SMP_BSP ? ON_BOOT : i, c->apic_id, type_of(c, bsp_type) };
}

/* Whether the running processors (abandoned ones too: the answer must not
 * change in the middle of a run) have more than one core type. */
static bool hybrid(const struct smp_info *s, unsigned bsp_type)
{
    unsigned first = 0;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned type = type_of(&s->cpus[i], bsp_type);
        if (!running(&s->cpus[i]) || type == 0)
            continue;
        if (first && type != first)
            return true;
        first = type;
    }
    return false;
}

static bool has_type(const struct on_target *t, unsigned n, unsigned type)
{
    for (unsigned k = 0; k < n; k++)
        if (t[k].core_type == type)
            return true;
    return false;
}

/* The boot processor, then the first running, not abandoned one of each
 * core type not chosen yet (a type whose processors were all abandoned is
 * left out; one not known, 0, represents nothing). */
static unsigned one_per_type(const struct smp_info *s, unsigned bsp_type, const bool *abandoned,
                             struct on_target *t, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->n && n == 0; i++)
        if (s->cpus[i].state == SMP_BSP)
            t[n++] = target(s, i, bsp_type);
    if (n == 0)
        t[n++] = (struct on_target){ ON_BOOT, s->bsp_apic_id, bsp_type };
    for (unsigned i = 0; i < s->n && n < max; i++) {
        const struct smp_cpu *c = &s->cpus[i];
        if (c->state == SMP_STARTED && !abandoned[i] && c->core_type && !has_type(t, n, c->core_type))
            t[n++] = target(s, i, bsp_type);
    }
    return n;
}

unsigned on_choose(const struct smp_info *s, const char *on_opt, unsigned bsp_type, const bool *abandoned,
                   struct on_target *t, unsigned max, struct on_choice *why)
{
    bool all = false, list = false;
    uint32_t count = 0;
    unsigned n = 0;
    *why = (struct on_choice){ 0, false };
    if (max == 0)
        return 0;
    if (!on_opt[0]) {
        why->hybrid = hybrid(s, bsp_type);
        if (why->hybrid)
            return one_per_type(s, bsp_type, abandoned, t, max);
        t[0] = (struct on_target){ ON_BOOT, s->bsp_apic_id, bsp_type }; /* as always */
        return 1;
    }
    why->bad = shape(on_opt, &all, &list, &count);
    for (unsigned i = 0; !why->bad && i < s->n && n < max; i++) {
        bool want = all || (list ? in_list(on_opt, s->cpus[i].apic_id) : n < count);
        if (running(&s->cpus[i]) && want && !abandoned[i])
            t[n++] = target(s, i, bsp_type);
    }
    if (n == 0)
        t[n++] = (struct on_target){ ON_BOOT, s->bsp_apic_id, bsp_type };
    return n;
}

/* The boot processor's own core type (0 where not hybrid), decoded once. */
static unsigned bsp_core_type(void)
{
    static struct cpu_topology t;
    static bool known;
    if (!known)
        cpu_topology_decode(cpu, &t);
    known = true;
    return t.core_type;
}

/* "core (0x40) on APIC ID 0 (the boot processor), atom (0x20) on APIC ID
 * 4" (the boot processor's may be "type not known"), noted when it first holds and again only when it changes (a
 * representative abandoned). */
static void note_hybrid(const struct on_target *t, unsigned n)
{
    static char said[256];
    char now[256];
    size_t len = 0;
    now[0] = '\0';
    for (unsigned k = 0; k < n && len < sizeof now; k++) {
        const char *name = cpu_core_type_name(t[k].core_type);
        char type[24];
        if (t[k].core_type)
            ksnprintf(type, sizeof type, "%s (0x%x)", name ? name : "type", t[k].core_type);
        else
            kstrlcpy(type, "type not known", sizeof type);
        int w = ksnprintf(now + len, sizeof now - len, "%s%s on APIC ID %u%s", k ? ", " : "", type,
                          (unsigned)t[k].apic_id, t[k].slot == ON_BOOT ? " (the boot processor)" : "");
        len += w > 0 ? (size_t)w : 0;
    }
    if (kstrcmp(now, said) == 0)
        return;
    kstrlcpy(said, now, sizeof said);
    log_note("info", "smp", "hybrid CPU: without on= each benchmark runs once per core type: %s", now);
}

unsigned on_targets(struct on_target *t, unsigned max)
{
    static bool said;
    struct on_choice why;
    unsigned n = on_choose(smp_started(), settings.on, bsp_core_type(), left_out, t, max, &why);
    if (why.bad && !said) {
        said = true;
        log_note("warn", "cmdline", "on=%s: %s; the boot processor is used", settings.on, why.bad);
    }
    if (why.hybrid)
        note_hybrid(t, n);
    named = on_given() || why.hybrid;
    return n;
}

bool on_given(void)
{
    return settings.on[0] != '\0';
}

bool on_names_cpu(void)
{
    return named;
}

void on_abandon(unsigned slot)
{
    if (slot < SMP_MAX_CPUS)
        left_out[slot] = true;
}
