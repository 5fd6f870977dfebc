/* Proof before trust for Linux's software events: each is counted around
 * something that provokes it a known number of times, once and twice over
 * (the same difference pmu_prove() takes for the hardware events, so the
 * reads cancel), and the difference of the middle one of SOFT_ROUNDS rounds
 * is judged. An event is offered to events= only when its proof passed.
 *
 * The middle round, not the least count of each length as for the hardware
 * events: a busy machine disturbs these counts both ways. task-clock, beside
 * stress-ng and a CI's compilers and QEMUs, once counted 1.2 ms for a spin of
 * 2 ms of the thread's CPU time, and the least "once" with a fair "twice" made
 * a difference of 2.74 ms (a fresh-check's hosted lane); a preemption adds a
 * context switch or a page of the kernel's. Two rounds in five may be off
 * either way and the proof still holds. */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hosted.h"
#include "perf_hosted.h"

#define TOUCHED_PAGES 64u       /* fresh pages a run writes once over */
#define SPIN_NS 2000000ull      /* CPU time a run spins once over */
#define SLEEP_NS 200000L        /* a sleep: the thread leaves the CPU */
#define SOFT_ROUNDS 5u          /* rounds of once and twice; the middle difference is judged */

struct soft_proof {
    int slot;
    uint32_t config;
    void (*run)(unsigned times);
    uint64_t min, max;          /* the window of twice - once */
};

static int home_cpu = -1, other_cpu = -1; /* the cpu-migrations proof's two CPUs */

static uint64_t thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin(unsigned times)
{
    uint64_t start = thread_ns();
    while (thread_ns() - start < times * SPIN_NS)
        ;
}

static void sleep_briefly(unsigned times)
{
    for (unsigned i = 0; i < times; i++) {
        struct timespec ts = { 0, SLEEP_NS };
        nanosleep(&ts, NULL);
    }
}

/* Written, each page once: one fault a page (a fresh private anonymous
 * mapping, no huge pages; a read first would fault twice: the zero page,
 * then the copy). The mapping's own system calls take no fault. */
static void touch_pages(unsigned times)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = times * TOUCHED_PAGES * page;
    uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return;
#ifdef MADV_NOHUGEPAGE
    (void)madvise(m, len, MADV_NOHUGEPAGE);
#endif
    for (size_t off = 0; off < len; off += page)
        ((volatile uint8_t *)m)[off] = 1;
    munmap(m, len);
}

static void pin(int to)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(to, &set);
    (void)sched_setaffinity(0, sizeof set, &set);
}

/* To the other CPU and back: two migrations a time. */
static void migrate(unsigned times)
{
    for (unsigned i = 0; i < times; i++) {
        pin(other_cpu);
        pin(home_cpu);
    }
}

/* task-clock's window reaches SPIN_NS/8 below: beside busy threads that
 * switch often (stress-ng --cpu 4 --switch 2, 50 runs) it counted as little
 * as 1.86 ms for 2 ms of the thread's CPU time. */
static const struct soft_proof proofs[] = {
    { PMU_PROOF_SW_TASK_CLOCK, PMU_LINUX_SW_TASK_CLOCK, spin, SPIN_NS - SPIN_NS / 8, SPIN_NS + SPIN_NS / 4 },
    { PMU_PROOF_SW_CONTEXT_SWITCHES, PMU_LINUX_SW_CONTEXT_SWITCHES, sleep_briefly, 1, 3 },
    { PMU_PROOF_SW_PAGE_FAULTS, PMU_LINUX_SW_PAGE_FAULTS, touch_pages, TOUCHED_PAGES,
      TOUCHED_PAGES + TOUCHED_PAGES / 16 },
    { PMU_PROOF_SW_CPU_MIGRATIONS, PMU_LINUX_SW_CPU_MIGRATIONS, migrate, 2, 3 },
};
#define NPROOFS (sizeof proofs / sizeof proofs[0])

static bool proven[NPROOFS];
static char soft_why[NPROOFS][240];
static bool hw_counting;
static char hw_why[280];

void perf_hardware_proved(bool counting, const char *why)
{
    hw_counting = counting;
    snprintf(hw_why, sizeof hw_why, "hardware events are not counted here: %s", why ? why : "not proved");
}

static const struct pmu_event *table_event(uint32_t config)
{
    for (unsigned i = 0; i < pmu_events_linux_count; i++)
        if (pmu_events_linux[i].umask == PMU_LINUX_SOFTWARE && pmu_events_linux[i].code == config)
            return &pmu_events_linux[i];
    return NULL;
}

/* A CPU other than the one this thread runs on that it may run on. */
static bool find_other_cpu(void)
{
    home_cpu = sched_getcpu();
    for (int i = 0; i < PLATFORM_HOSTED_CPUS && home_cpu >= 0; i++) {
        uint32_t apic;
        if (i != home_cpu && hosted_apic_of(i, &apic)) {
            other_cpu = i;
            return true;
        }
    }
    return false;
}

struct soft_round {
    uint64_t before, after, once, twice, delta;
};

/* The round whose difference is the middle one of SOFT_ROUNDS (its reads,
 * once, twice and difference go to the evidence); false when a read failed. */
static bool count_middle(int fd, const struct soft_proof *s, struct pmu_probe *p)
{
    struct soft_round rounds[SOFT_ROUNDS];
    for (unsigned r = 0; r < SOFT_ROUNDS; r++) {
        struct soft_round *c = &rounds[r];
        for (unsigned times = 1; times <= 2; times++) {
            if (!perf_read_fd(fd, &c->before))
                return false;
            s->run(times);
            if (!perf_read_fd(fd, &c->after))
                return false;
            *(times == 1 ? &c->once : &c->twice) = c->after - c->before;
        }
        c->delta = c->twice > c->once ? c->twice - c->once : 0;
        /* insertion by difference: rounds[0..r] stay sorted */
        for (unsigned k = r; k > 0 && rounds[k - 1].delta > rounds[k].delta; k--) {
            struct soft_round t = rounds[k];
            rounds[k] = rounds[k - 1];
            rounds[k - 1] = t;
        }
    }
    const struct soft_round *m = &rounds[SOFT_ROUNDS / 2];
    p->before = m->before;
    p->after = m->after;
    p->once = m->once;
    p->twice = m->twice;
    p->delta = m->delta;
    return true;
}

static bool prove_one(struct pmu_driver *d, unsigned k, struct pmu_probe *p)
{
    const struct soft_proof *s = &proofs[k];
    const struct pmu_event *e = table_event(s->config);
    struct pmu_eventsel sel = pmu_eventsel_of(e);
    struct pmu_linux_attr a;
    *p = (struct pmu_probe){ .slot = s->slot, .event = e->name, .counter = k, .code = e->code,
                             .umask = e->umask, .expect_min = s->min, .expect_max = s->max };
    pmu_linux_attr_of(&sel, &a);
    if (s->run == migrate && !find_other_cpu()) {
        p->status = PMU_ERR_EVENT;
        snprintf(soft_why[k], sizeof soft_why[k], "not proved: the thread may run on one CPU only, so no "
                 "migration can be provoked");
        return false;
    }
    int fd = perf_open(&a, d->cpu, e->name);
    if (fd < 0) {
        p->status = PMU_ERR_REFUSED;
        snprintf(soft_why[k], sizeof soft_why[k], "%s", perf_refusal());
        return false;
    }
    bool user_only = perf_opened_ring3_only();
    bool read = count_middle(fd, s, p);
    close(fd);
    p->ok = read && p->delta >= s->min && p->delta <= s->max;
    if (!read)
        p->status = PMU_ERR_REFUSED;
    if (!p->ok)
        snprintf(soft_why[k], sizeof soft_why[k], "its proof failed: %s moved by %llu, expected %llu..%llu%s",
                 e->name, (unsigned long long)p->delta, (unsigned long long)s->min, (unsigned long long)s->max,
                 user_only ? " (counted in ring 3 only: perf_event_paranoid forbids the kernel to this process)"
                           : "");
    return p->ok;
}

bool perf_prove_software(struct pmu_driver *d, struct pmu_verdict *v)
{
    bool any = false;
    cpu_set_t saved;
    bool have_mask = sched_getaffinity(0, sizeof saved, &saved) == 0;
    for (unsigned k = 0; k < NPROOFS && v->nprobes < PMU_PROVE_MAX; k++) {
        proven[k] = prove_one(d, k, &v->probes[v->nprobes]);
        v->nprobes++;
        any |= proven[k];
        if (!proven[k] && !v->software_reason)
            v->software_reason = soft_why[k];
    }
    if (have_mask) /* the migrations' proof moved the thread: back where it was pinned */
        (void)sched_setaffinity(0, sizeof saved, &saved);
    return any;
}

const char *perf_unusable(const struct pmu_driver *d, const struct pmu_eventsel *ev)
{
    (void)d;
    struct pmu_linux_attr a;
    if (!pmu_linux_attr_of(ev, &a))
        return "a suffix changed the named event's code or unit mask";
    if (a.type != PMU_LINUX_SOFTWARE)
        return hw_counting ? NULL : hw_why;
    /* In the table for sample= (the timer Linux samples a thread's CPU time
     * with), not proved as a count: task-clock counts the same time. */
    if (a.config == PMU_LINUX_SW_CPU_CLOCK)
        return "cpu-clock is for sample= (its timer); its count has no proof here: events=task-clock "
               "counts the thread's CPU time, proved";
    for (unsigned k = 0; k < NPROOFS; k++)
        if (proofs[k].config == a.config)
            return proven[k] ? NULL : soft_why[k];
    return "no proof for this software event";
}
