/* The hosted runner's sampling (struct platform's sampler, platform/sampler.h):
 * Linux interrupts the thread for us. One perf event of the calling thread
 * (perf_event_open(2): pid 0, cpu -1) with a sample period writes a
 * PERF_RECORD_SAMPLE holding the interrupted instruction pointer to a ring
 * buffer each time its count passes another period; collect (after each of
 * the body's runs) and stop() read them, in order, into sample_hit()
 * (sample_ring.c). No signal comes: Linux sends
 * one only to a descriptor set O_ASYNC with an owner (perf_event_open(2),
 * "Overflow handling"), and this one is not.
 *
 * What is counted: sample=EVENT is the run's own PMU_LINUX event (a generic
 * hardware event, a software event, a raw code: pmu_linux_attr_of), its
 * period in events; sample=time:US is PERF_COUNT_SW_CPU_CLOCK every US *
 * 1000 ns of the thread's CPU time. The two clocks (cpu-clock, task-clock)
 * count nanoseconds, so sample=cpu-clock:100000 is every 100 µs. Ring 3
 * only (exclude_kernel: the body's ring, and all perf_event_paranoid 2
 * allows a process), so every sample is an instruction of this process.
 *
 * A full ring drops samples, and says so (PERF_RECORD_LOST) only once it has
 * room again: a body's run that outlasts the ring's 16384 periods would lose
 * some before collect came. So the event is enabled
 * with PERF_EVENT_IOC_REFRESH(limit): Linux disables it by itself after
 * limit overflows (perf_event_open(2): "enable a counter for a number of
 * overflows ... after which it is disabled"), limit being spec->max_samples
 * and never more than the ring holds: it cannot fill between two reads. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness/sample.h"
#include "perf_hosted.h"
#include "sample_perf.h"

/* Linux's timer events (cpu-clock, task-clock) fire at most every 10000 ns:
 * kernel/events/core.c, perf_swevent_start_hrtimer(), takes
 * max(10000, sample_period). A shorter period would not sample as asked. */
#define CLOCK_MIN_NS 10000u
/* sample=cpu-clock with no period: the parser's default (997 events) would
 * be 997 ns here; a clock event takes 100 µs instead. */
#define CLOCK_DEFAULT_NS 100000u
/* The ring's data area: 2^6 pages (256 KiB of 4 KiB pages) holds 16384
 * samples of 16 bytes (header and ip); a user whose perf_event_mlock_kb
 * does not allow that many gets a smaller ring, down to 2^3 pages. */
#define RING_LOG2_MAX 6u
#define RING_LOG2_MIN 3u
#define SAMPLE_RECORD_BYTES 16u

/* What one sample= asks Linux for. */
struct sample_plan {
    struct pmu_linux_attr a;     /* type and config; exclude_kernel always */
    char label[PMU_LABEL_MAX];   /* "cpu-clock", "page-faults", "0xc0" */
    uint64_t period;             /* events, or ns for a clock */
    bool clock, defaulted;       /* period in ns; defaulted: CLOCK_DEFAULT_NS for none given */
};

static struct {
    int fd;                                 /* -1: nothing armed */
    volatile struct perf_event_mmap_page *page;
    size_t len;                             /* of the mapping: metadata page and data area */
    uint32_t limit;                         /* samples the REFRESH allowed */
    struct perf_ring_count count;           /* the records read so far */
    uint64_t period;                        /* as Linux was asked (ns for a clock) */
    bool clock;
} armed = { .fd = -1 };
static struct sample_end last = { .delivery = "perf_event_open(2) sampling, not started" };
static char why[300], delivery[120], stopped[200];

static bool is_clock(const struct pmu_linux_attr *a)
{
    return a->type == PMU_LINUX_SOFTWARE &&
           (a->config == PMU_LINUX_SW_CPU_CLOCK || a->config == PMU_LINUX_SW_TASK_CLOCK);
}

/* sample=EVENT: the run's event as PMU_LINUX opens it, ring 3 only. */
static const char *plan_event(const struct sample_spec *spec, struct sample_plan *p)
{
    if (!spec->sel)
        return "sample= named no event";
    if (spec->drv && spec->drv->kind != PMU_LINUX)
        return "the hosted runner samples through Linux's perf events only, and the counters in use are not "
               "its PMU_LINUX driver";
    if (!pmu_linux_attr_of(spec->sel, &p->a))
        return "a suffix changed the named event's code or unit mask";
    if (p->a.exclude_user)
        return "':k' asks for the kernel only; the hosted runner samples the body's ring, ring 3";
    pmu_eventsel_label(spec->drv, spec->sel, p->label, sizeof p->label);
    p->clock = is_clock(&p->a);
    p->period = spec->period;
    if (p->clock && !spec->period_given) {
        p->period = CLOCK_DEFAULT_NS;
        p->defaulted = true;
    }
    return NULL;
}

/* NULL when spec means something here (filling *p), else why not. */
static const char *plan_of(const struct sample_spec *spec, struct sample_plan *p)
{
    *p = (struct sample_plan){ .a = { .type = PMU_LINUX_SOFTWARE, .config = PMU_LINUX_SW_CPU_CLOCK } };
    if (spec->nmi)
        return "':nmi' has no meaning in ring 3: Linux delivers a perf event's samples through its own "
               "interrupt handler, whatever the local APIC's delivery mode";
    if (spec->source == SAMPLE_TIME) {
        snprintf(p->label, sizeof p->label, "cpu-clock");
        p->clock = true;
        p->period = spec->period * 1000u;
    } else if (spec->source == SAMPLE_EVENT) {
        const char *no = plan_event(spec, p);
        if (no)
            return no;
    } else {
        return "sampling is off (no sample= given)";
    }
    p->a.exclude_kernel = true;
    p->a.exclude_user = false;
    if (p->period == 0)
        return "a period of 0 samples nothing";
    if (p->clock && p->period < CLOCK_MIN_NS) {
        snprintf(why, sizeof why, "Linux fires %s's timer at most every %u ns (kernel/events/core.c, "
                 "perf_swevent_start_hrtimer, raises a shorter period to that): a period of %llu ns would not "
                 "sample as asked; give %s", p->label, CLOCK_MIN_NS, (unsigned long long)p->period,
                 spec->source == SAMPLE_TIME ? "time:10 or more (microseconds)"
                                             : "10000 ns or more (cpu-clock:100000 is every 100 µs)");
        return why;
    }
    return NULL;
}

static int open_sampling(const struct sample_plan *p)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = p->a.type;
    attr.config = p->a.config;
    attr.sample_period = p->period;
    attr.sample_type = PERF_SAMPLE_IP;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    /* Wake a reader only when the whole ring is full (never, under the
     * REFRESH limit): nothing polls; collect and stop() read it. */
    attr.watermark = 1;
    attr.wakeup_watermark = (uint32_t)(4096u << RING_LOG2_MAX);
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd >= 0 ? (int)fd : -errno;
}

/* perf_event_open's refusal, in the words the counting driver uses
 * (pmu_linux_refusal); EOPNOTSUPP means more here than there. */
static const char *refused(const struct sample_spec *spec, const struct sample_plan *p, int err)
{
    struct pmu_linux_context lc;
    perf_linux_context(spec->drv ? spec->drv->cpu : NULL, &lc);
    pmu_linux_refusal(why, sizeof why, &p->a, p->label, err, &lc);
    /* perf_event_open(2): EOPNOTSUPP for "sampling if no PMU interrupt is available". */
    if (err == PMU_LINUX_EOPNOTSUPP)
        snprintf(why, sizeof why, "perf_event_open(%s %s): EOPNOTSUPP: this PMU cannot sample (no overflow "
                 "interrupt)", pmu_linux_type_name(p->a.type), p->label);
    return why;
}

/* The event opened for spec (*fd), or why it cannot be. */
static const char *open_for(const struct sample_spec *spec, struct sample_plan *p, int *fd)
{
    const char *no = plan_of(spec, p);
    if (no)
        return no;
    *fd = open_sampling(p);
    return *fd < 0 ? refused(spec, p, -*fd) : NULL;
}

static const char *sampler_refusal(const struct sample_spec *spec)
{
    struct sample_plan p;
    int fd = -1;
    const char *no = open_for(spec, &p, &fd);
    if (!no)
        close(fd);
    return no;
}

static void disarm(void)
{
    if (armed.page)
        munmap((void *)armed.page, armed.len);
    if (armed.fd >= 0)
        close(armed.fd);
    armed.page = NULL;
    armed.fd = -1;
}

/* The data area's bytes (the metadata page says since Linux 4.1; before,
 * it is every page after the first). */
static uint64_t data_size(void)
{
    uint64_t size = armed.page->data_size;
    return size ? size : armed.len - (size_t)sysconf(_SC_PAGESIZE);
}

static const char *map_ring(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (unsigned n = RING_LOG2_MAX;; n--) {
        size_t len = (1 + ((size_t)1 << n)) * page;
        /* PROT_WRITE: Linux then honours data_tail and never overwrites
         * unread records (perf_event_open(2), data_tail). */
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, armed.fd, 0);
        if (m != MAP_FAILED) {
            armed.page = m;
            armed.len = len;
            return NULL;
        }
        int err = errno;
        /* EPERM: more locked memory than perf_event_mlock_kb and RLIMIT_MEMLOCK allow this user. */
        if (err != EPERM || n == RING_LOG2_MIN) {
            snprintf(why, sizeof why, "mmap of the perf event's ring buffer (%zu bytes): %s", len,
                     strerror(err));
            return why;
        }
    }
}

static void describe(const struct sample_plan *p)
{
    if (p->clock)
        snprintf(delivery, sizeof delivery, "perf_event %s every %llu ns%s", p->label,
                 (unsigned long long)p->period, p->defaulted ? " (a clock event's default period)" : "");
    else
        snprintf(delivery, sizeof delivery, "perf_event %s every %llu", p->label, (unsigned long long)p->period);
}

static const char *sampler_start(const struct sample_spec *spec)
{
    struct sample_plan p;
    int fd = -1;
    disarm(); /* a run left armed (its stop never came): its samples are not this run's */
    const char *no = open_for(spec, &p, &fd);
    if (no)
        return no;
    armed.fd = fd;
    armed.count = (struct perf_ring_count){ 0 };
    armed.period = p.period;
    armed.clock = p.clock;
    if ((no = map_ring()) != NULL) {
        disarm();
        return no;
    }
    uint64_t room = data_size() / SAMPLE_RECORD_BYTES / 8 * 7; /* an eighth for THROTTLE and LOST records */
    uint32_t want = spec->max_samples ? spec->max_samples : SAMPLE_IPS_MAX;
    armed.limit = want < room ? want : (uint32_t)room;
    describe(&p);
    /* Enables the event for armed.limit overflows (the argument is an int). */
    if (ioctl(armed.fd, PERF_EVENT_IOC_REFRESH, (int)armed.limit) != 0) {
        snprintf(why, sizeof why, "ioctl(PERF_EVENT_IOC_REFRESH) on the sampling event: %s", strerror(errno));
        disarm();
        return why;
    }
    return NULL;
}

/* Why sampling ended early, from what the ring said (NULL: it did not). */
static const char *stopped_why(const struct perf_ring_count *c)
{
    if (c->torn)
        snprintf(stopped, sizeof stopped, "a record in Linux's ring buffer made no sense: reading stopped "
                 "after %u samples", (unsigned)c->samples);
    else if (c->lost)
        snprintf(stopped, sizeof stopped, "Linux dropped %llu samples (PERF_RECORD_LOST: its ring buffer was "
                 "full)", (unsigned long long)c->lost);
    else if (c->throttled)
        snprintf(stopped, sizeof stopped, "Linux throttled the event %u times (PERF_RECORD_THROTTLE: more "
                 "interrupts a second than kernel.perf_event_max_sample_rate allows)", (unsigned)c->throttled);
    else
        return NULL;
    return stopped;
}

/* data_head, whole: the 32-bit runner loads it in two halves (an atomic
 * 64-bit load there would go through the x87, whose state is the body's), so
 * it is read until two reads agree. */
static uint64_t read_head(volatile struct perf_event_mmap_page *pc)
{
    uint64_t was, now = pc->data_head;
    do {
        was = now;
        now = pc->data_head;
    } while (now != was);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return now;
}

/* struct platform_sampler's collect, and stop()'s last read. The ring's
 * protocol (perf_event_open(2), data_head and data_tail): read
 * data_head, a read barrier, the records up to it, a full barrier (the
 * records read before Linux may overwrite them), then data_tail. */
void hosted_sample_drain(void)
{
    volatile struct perf_event_mmap_page *pc = armed.page;
    if (!pc)
        return;
    size_t offset = pc->data_offset ? (size_t)pc->data_offset : (size_t)sysconf(_SC_PAGESIZE);
    uint64_t head = read_head(pc), tail = pc->data_tail;
    const volatile uint8_t *data = (const volatile uint8_t *)pc + offset;
    uint64_t lost_before = armed.count.lost;
    tail = perf_ring_read(data, data_size(), tail, head, sample_hit, &armed.count);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    pc->data_tail = tail;
    /* The samples Linux dropped count with those the buffer had no room for. */
    uint64_t lost = sample_buf.lost + (armed.count.lost - lost_before);
    sample_buf.lost = lost > UINT32_MAX ? UINT32_MAX : (uint32_t)lost;
}

static void sampler_stop(struct sample_end *end)
{
    if (armed.fd < 0) { /* stopped already, or never started: as the last stop said */
        *end = last;
        return;
    }
    /* Disabled before the last read: no record is written after this returns. */
    (void)ioctl(armed.fd, PERF_EVENT_IOC_DISABLE, 0);
    hosted_sample_drain();
    const struct perf_ring_count *c = &armed.count;
    last = (struct sample_end){
        .delivery = delivery,
        .taken = c->samples,
        .capped = c->samples + c->lost >= armed.limit,
        .storm = false,
        .stopped = stopped_why(c),
        /* Linux's handler is kernel code, which a ring-3-only event never samples. */
        .handler_lo = 0,
        .handler_hi = 0,
        .period = armed.period,
        .unit = armed.clock ? "ns" : "events",
    };
    disarm();
    *end = last;
}

/* No skid here: it is measured against an instructions event's overflow,
 * which ring 3 sees only through a hardware PMU. No cycle-by-cycle run:
 * that preloads the cycles counter, which Linux does not let a process do.
 * spec->bound_ms is not ours to keep: the watchdog's timer (SIGALRM,
 * watchdog.c) is not the sampling timer. */
const struct platform_sampler hosted_sampler = {
    .refusal = sampler_refusal,
    .start = sampler_start,
    .stop = sampler_stop,
    .collect = hosted_sample_drain,
    .skid = NULL,
    .cycle_step = NULL,
};
