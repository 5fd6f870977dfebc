/* Linux's generic events and what perf_event_open(2) is asked for each
 * (pmu_linux.h). Names as perf(1) spells them (`perf list`), so that
 * events=cycles,page-faults means here what it means to perf stat. */
#include "pmu_linux.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define HW(config, nm, ds) { nm, config, PMU_LINUX_HARDWARE, 0, 0, -1, ds }
#define SW(config, nm, ds) { nm, config, PMU_LINUX_SOFTWARE, 0, 0, -1, ds }

const struct pmu_event pmu_events_linux[] = {
    HW(PMU_LINUX_HW_CPU_CYCLES, "cycles", "core cycles (PERF_COUNT_HW_CPU_CYCLES)"),
    HW(PMU_LINUX_HW_INSTRUCTIONS, "instructions", "instructions retired (PERF_COUNT_HW_INSTRUCTIONS)"),
    HW(PMU_LINUX_HW_BRANCH_INSTRUCTIONS, "branches", "branch instructions retired"),
    HW(PMU_LINUX_HW_BRANCH_MISSES, "branch-misses", "mispredicted branches"),
    HW(PMU_LINUX_HW_CACHE_REFERENCES, "cache-references", "last-level cache references"),
    HW(PMU_LINUX_HW_CACHE_MISSES, "cache-misses", "last-level cache misses"),
    HW(PMU_LINUX_HW_BUS_CYCLES, "bus-cycles", "bus cycles"),
    HW(PMU_LINUX_HW_REF_CPU_CYCLES, "ref-cycles", "reference cycles, unaffected by frequency scaling"),
    /* The timer sample=cpu-clock and sample=time interrupt on (Linux's
     * hrtimer on the thread's CPU time, kernel/hosted/sample_perf.c). */
    SW(PMU_LINUX_SW_CPU_CLOCK, "cpu-clock", "the thread's CPU time on a per-CPU clock, in nanoseconds"),
    SW(PMU_LINUX_SW_TASK_CLOCK, "task-clock", "the thread's CPU time in nanoseconds"),
    SW(PMU_LINUX_SW_CONTEXT_SWITCHES, "context-switches", "times the thread was switched out"),
    SW(PMU_LINUX_SW_PAGE_FAULTS, "page-faults", "page faults taken by the thread"),
    SW(PMU_LINUX_SW_CPU_MIGRATIONS, "cpu-migrations", "moves of the thread to another CPU"),
};

const unsigned pmu_events_linux_count = sizeof pmu_events_linux / sizeof pmu_events_linux[0];

static const struct pmu_event *table_entry(const char *name)
{
    for (unsigned i = 0; name && i < pmu_events_linux_count; i++)
        if (kstrcmp(pmu_events_linux[i].name, name) == 0)
            return &pmu_events_linux[i];
    return NULL;
}

/* The x86 raw layout: the bits of IA32_PERFEVTSELx (SDM Vol. 3B §18.2.1.1)
 * and AMD's PerfEvtSel (event select 11:8 at 35:32, APM Vol. 2 §13.2.1). */
static uint64_t raw_config(const struct pmu_eventsel *ev)
{
    uint64_t c = (uint64_t)(ev->code & 0xff) | ((uint64_t)ev->umask << 8) |
                 ((uint64_t)ev->cmask << 24) | ((uint64_t)(ev->code >> 8) << 32);
    if (ev->flags & PMU_EDGE)
        c |= 1ull << 18;
    if (ev->flags & PMU_INV)
        c |= 1ull << 23;
    return c;
}

bool pmu_linux_attr_of(const struct pmu_eventsel *ev, struct pmu_linux_attr *out)
{
    *out = (struct pmu_linux_attr){ 0 };
    const struct pmu_event *e = table_entry(ev->name);
    if (ev->name && (!e || e->code != ev->code || e->umask != ev->umask))
        return false;
    out->type = e ? e->umask : PMU_LINUX_RAW;
    out->config = e ? e->code : raw_config(ev);
    bool os = ev->flags & PMU_OS, usr = ev->flags & PMU_USR;
    if (os != usr) {
        out->exclude_kernel = !os;
        out->exclude_user = !usr;
    } else {
        out->exclude_kernel = out->type != PMU_LINUX_SOFTWARE;
    }
    out->pinned = out->type != PMU_LINUX_SOFTWARE;
    return true;
}

const char *pmu_linux_type_name(uint32_t type)
{
    switch (type) {
    case PMU_LINUX_HARDWARE: return "PERF_TYPE_HARDWARE";
    case PMU_LINUX_SOFTWARE: return "PERF_TYPE_SOFTWARE";
    case PMU_LINUX_RAW: return "PERF_TYPE_RAW";
    default: return "PERF_TYPE_?";
    }
}

const char *pmu_linux_errno_name(int err)
{
    switch (err) {
    case PMU_LINUX_EPERM: return "EPERM";
    case PMU_LINUX_ENOENT: return "ENOENT";
    case PMU_LINUX_EACCES: return "EACCES";
    case PMU_LINUX_EBUSY: return "EBUSY";
    case PMU_LINUX_ENODEV: return "ENODEV";
    case PMU_LINUX_EINVAL: return "EINVAL";
    case PMU_LINUX_EMFILE: return "EMFILE";
    case PMU_LINUX_ENOSYS: return "ENOSYS";
    case PMU_LINUX_EOPNOTSUPP: return "EOPNOTSUPP";
    default: return NULL;
    }
}

/* The reason for ENOENT: Linux has no such event. For a hardware event that
 * usually means no PMU at all (perf_event_open(2): ENOENT "if the type
 * setting is not valid"; without a cpu PMU no type takes hardware events). */
static const char *no_such_event(const struct pmu_linux_attr *a, const struct pmu_linux_context *c)
{
    if (a->type == PMU_LINUX_SOFTWARE)
        return "this kernel has no such software event";
    if (!c->cpu_pmu)
        return c->hypervisor ? "no hardware PMU in this VM (Linux registered no cpu event source: the "
                               "hypervisor exposes no virtual PMU)"
                             : "Linux registered no cpu event source (no PMU driver for this CPU)";
    return "this PMU does not have the event";
}

/* EACCES/EPERM: perf_event_paranoid (Documentation/admin-guide/perf-security.rst). */
static void not_allowed(char *buf, size_t size, const struct pmu_linux_attr *a, const struct pmu_linux_context *c)
{
    if (c->paranoid > 2)
        ksnprintf(buf, size, "perf_event_paranoid is %d: no perf events without CAP_PERFMON", c->paranoid);
    else if (!a->exclude_kernel && c->paranoid > 1)
        ksnprintf(buf, size, "perf_event_paranoid is %d: counting the kernel needs CAP_PERFMON or 1 or less",
                  c->paranoid);
    else
        ksnprintf(buf, size, "not permitted (perf_event_paranoid %d%s)", c->paranoid,
                  c->privileged ? ", though privileged: a security module?" : "");
}

static void reason_of(char *buf, size_t size, const struct pmu_linux_attr *a, int err,
                      const struct pmu_linux_context *c)
{
    switch (err) {
    case PMU_LINUX_ENOENT: ksnprintf(buf, size, "%s", no_such_event(a, c)); return;
    case PMU_LINUX_EACCES:
    case PMU_LINUX_EPERM: not_allowed(buf, size, a, c); return;
    case PMU_LINUX_ENOSYS:
        ksnprintf(buf, size, "no perf_event_open in this kernel (or an emulator such as qemu-user does not "
                             "pass it on)");
        return;
    case PMU_LINUX_EOPNOTSUPP: ksnprintf(buf, size, "the PMU cannot count this way (excluding a ring?)"); return;
    case PMU_LINUX_ENODEV: ksnprintf(buf, size, "the event is not supported on this CPU"); return;
    case PMU_LINUX_EBUSY: ksnprintf(buf, size, "the counter is taken by another user of the PMU"); return;
    case PMU_LINUX_EINVAL: ksnprintf(buf, size, "the kernel rejected the attribute"); return;
    case PMU_LINUX_EMFILE: ksnprintf(buf, size, "too many open files"); return;
    default: ksnprintf(buf, size, "refused"); return;
    }
}

void pmu_linux_refusal(char *buf, size_t size, const struct pmu_linux_attr *a, const char *event,
                       int err, const struct pmu_linux_context *ctx)
{
    char reason[160], code[16];
    const char *name = pmu_linux_errno_name(err);
    if (!name) {
        ksnprintf(code, sizeof code, "errno %d", err);
        name = code;
    }
    reason_of(reason, sizeof reason, a, err, ctx);
    ksnprintf(buf, size, "perf_event_open(%s %s): %s: %s", pmu_linux_type_name(a->type), event ? event : "raw",
              name, reason);
}
