/* An event request as text that names everything the counter was told:
 * the label a record carries for it. The label is the request in the
 * syntax of events= (pmu_event_parse), so it reads back as the same
 * request: a table name or a raw code, then only the qualifiers that differ
 * from what the name alone means. Without them, P5's clock mode ("0x16:dur":
 * the clocks while the event is active, CESR's clock-count bit; Intel SDM
 * Vol. 3B §18.23, see pmu_msr.h) would read like the event count of the
 * same code, and "INST_RETIRED:u" like the count of both rings. */
#include "lib/fmt.h"
#include "pmu.h"

#define PMU_RINGS (PMU_OS | PMU_USR)

int pmu_eventsel_label(const struct pmu_driver *d, const struct pmu_eventsel *s, char *buf, size_t size)
{
    /* What the bare name means: the table entry's own request; a raw code
     * means unit mask 0, both rings, event mode. */
    struct pmu_eventsel plain = { .flags = PMU_RINGS };
    const struct pmu_event *e = s->name && d ? pmu_event_find(d, s->name) : NULL;
    if (e)
        plain = pmu_eventsel_of(e);
    char umask[8] = "";
    if (s->umask != plain.umask)
        ksnprintf(umask, sizeof umask, ":0x%02x", s->umask);
    unsigned rings = s->flags & PMU_RINGS; /* neither bit means both, as in the table */
    const char *ring = !rings || rings == (plain.flags & PMU_RINGS) ? ""
                       : rings == PMU_USR ? ":u" : rings == PMU_OS ? ":k" : "";
    const char *dur = (s->flags & PMU_DURATION) && !(plain.flags & PMU_DURATION) ? ":dur" : "";
    if (s->name)
        return ksnprintf(buf, size, "%s%s%s%s", s->name, umask, ring, dur);
    return ksnprintf(buf, size, "0x%x%s%s%s", (unsigned)s->code, umask, ring, dur);
}
