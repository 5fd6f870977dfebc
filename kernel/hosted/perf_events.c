/* The hosted runner's counters: Linux's perf events (perf_event_open(2)),
 * behind the pmu room's driver interface as a PMU_LINUX driver. Each
 * counter is one event of the calling thread (pid 0, any CPU), opened when
 * the harness programs it and closed when it stops. Hardware events are
 * proved by pmu_prove()'s loop like the MSR drivers' counters; the software
 * events (perf_soft_proof.c) by what provokes them a known number of times.
 * A refusal is kept in Linux's words (pmu_linux_refusal).
 *
 * Reading: where the event's mmap page (struct perf_event_mmap_page, the
 * protocol in the comments of include/uapi/linux/perf_event.h) says
 * cap_user_rdpmc and gives a counter index, RDPMC from ring 3 (allowed by
 * /sys/bus/event_source/devices/cpu/rdpmc, which Linux reflects in that
 * bit), under the page's sequence lock; else read(2). */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hosted.h"
#include "perf_hosted.h"
#include "pmu/pmu_linux.h"

struct perf_counter {
    int fd;                                 /* -1: not open */
    volatile struct perf_event_mmap_page *page; /* NULL: read(2) only */
};
static struct perf_counter ctr[PMU_MAX_GP];
static char first_refusal[240]; /* struct pmu_driver.refused */
static bool read_by_rdpmc; /* some read went through RDPMC */

/* The driver's first refusal stays its reason (the proof's first event: the pmu record says it). */
static void refused(struct pmu_driver *d)
{
    if (d->refused)
        return;
    snprintf(first_refusal, sizeof first_refusal, "%s", perf_refusal());
    d->refused = first_refusal;
}

static void close_counter(struct perf_counter *k)
{
    if (k->page)
        munmap((void *)k->page, (size_t)sysconf(_SC_PAGESIZE));
    if (k->fd >= 0)
        close(k->fd);
    k->page = NULL;
    k->fd = -1;
}

static uint64_t rdpmc(uint32_t index)
{
    uint32_t lo, hi;
    __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index));
    return ((uint64_t)hi << 32) | lo;
}

/* The user page's protocol: the count is offset + the hardware counter
 * (index - 1, sign-extended from pmc_width), read again while the
 * sequence lock moved. False when the event is not on a counter now. */
static bool read_user_page(volatile struct perf_event_mmap_page *pc, uint64_t *v)
{
    uint32_t seq;
    uint64_t count;
    do {
        seq = pc->lock;
        __asm__ volatile("" ::: "memory");
        uint32_t index = pc->index;
        if (!pc->cap_user_rdpmc || index == 0)
            return false;
        unsigned width = pc->pmc_width;
        int64_t pmc = (int64_t)rdpmc(index - 1);
        if (width && width < 64)
            pmc = (int64_t)((uint64_t)pmc << (64 - width)) >> (64 - width);
        count = (uint64_t)((int64_t)pc->offset + pmc);
        __asm__ volatile("" ::: "memory");
    } while (pc->lock != seq);
    *v = count;
    return true;
}

static int linux_program(struct pmu_driver *d, unsigned c, const struct pmu_eventsel *ev)
{
    struct pmu_linux_attr a;
    if (!pmu_linux_attr_of(ev, &a))
        return PMU_ERR_EVENT;
    close_counter(&ctr[c]);
    int fd = perf_open(&a, d->cpu, ev->name);
    if (fd < 0) {
        refused(d);
        return PMU_ERR_REFUSED;
    }
    ctr[c].fd = fd;
    if (a.type != PMU_LINUX_SOFTWARE) {
        void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
        ctr[c].page = p == MAP_FAILED ? NULL : p;
    }
    d->programmed |= 1ull << c;
    return 0;
}

static int linux_read(struct pmu_driver *d, unsigned c, uint64_t *v)
{
    (void)d;
    if (ctr[c].fd < 0)
        return PMU_ERR_COUNTER;
    if (ctr[c].page && read_user_page(ctr[c].page, v)) {
        read_by_rdpmc = true;
        return 0;
    }
    if (perf_read_fd(ctr[c].fd, v))
        return 0;
    perf_refuse("read(2) of a perf event gave no count (a pinned event that lost its counter to another "
                "user of the PMU)");
    refused(d);
    return PMU_ERR_REFUSED;
}

static int linux_stop(struct pmu_driver *d)
{
    for (unsigned c = 0; c < PMU_MAX_GP; c++)
        close_counter(&ctr[c]);
    d->programmed = 0;
    return 0;
}

/* No MSR: nothing to save, restore or check afterwards. */
static unsigned linux_list(const struct pmu_driver *d, struct pmu_saved_msr *out, unsigned max)
{
    (void)d, (void)out, (void)max;
    return 0;
}

static bool linux_saved_counting(const struct pmu_driver *d, unsigned c)
{
    (void)d, (void)c;
    return false;
}

static void linux_prove_more(struct pmu_driver *d, struct pmu_verdict *v)
{
    perf_hardware_proved(v->counting, v->counting ? NULL : (d->refused ? d->refused : pmu_reason_text(v->reason)));
    if (v->counting && read_by_rdpmc)
        v->reads = "rdpmc (the perf mmap page's cap_user_rdpmc), read(2) where it is off";
    v->software_counting = perf_prove_software(d, v);
}

static const struct pmu_driver_ops linux_ops = {
    .program = linux_program,
    .read = linux_read,
    .stop = linux_stop,
    .list_msrs = linux_list,
    .saved_counting = linux_saved_counting,
    .prove_more = linux_prove_more,
    .unusable = perf_unusable,
};

bool hosted_perf_bind(struct pmu_driver *d, const struct cpu_info *c, const char **why)
{
    static char said[200];
    struct pmu_linux_context lc;
    perf_linux_context(c, &lc);
    int rdpmc_allowed = perf_read_int_file(PERF_CPU_SOURCE "/rdpmc", -1);
    for (unsigned i = 0; i < PMU_MAX_GP; i++)
        ctr[i] = (struct perf_counter){ -1, NULL };
    memset(d, 0, sizeof *d);
    d->name = "linux-perf";
    d->kind = PMU_LINUX;
    d->cpu = c;
    d->gp_counters = PMU_MAX_GP; /* events open at once: one file descriptor each */
    d->gp_width = 64;
    d->events = pmu_events_linux;
    d->nevents = pmu_events_linux_count;
    d->has_rdpmc = rdpmc_allowed > 0;
    d->reads = "read(2)";
    d->ops = &linux_ops;
    pmu_set_proof(d, PMU_PROOF_INSN, 0, PMU_LINUX_HW_INSTRUCTIONS, PMU_LINUX_HARDWARE, PMU_USR);
    pmu_set_proof(d, PMU_PROOF_CYCLES, 1, PMU_LINUX_HW_CPU_CYCLES, PMU_LINUX_HARDWARE, PMU_USR);
    pmu_set_proof(d, PMU_PROOF_BRANCH, 2, PMU_LINUX_HW_BRANCH_INSTRUCTIONS, PMU_LINUX_HARDWARE, PMU_USR);
    if (!lc.cpu_pmu)
        snprintf(said, sizeof said, "Linux perf_event_open(2), the counters Linux lends a thread "
                 "(perf_event_paranoid %d; no %s: no hardware PMU)", lc.paranoid, PERF_CPU_SOURCE);
    else
        snprintf(said, sizeof said, "Linux perf_event_open(2), the counters Linux lends a thread "
                 "(perf_event_paranoid %d; %s/rdpmc %d)", lc.paranoid, PERF_CPU_SOURCE, rdpmc_allowed);
    *why = said;
    return true;
}
