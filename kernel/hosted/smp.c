/* Every core on the hosted runner (issue 12): struct platform's smp_start,
 * smp_call and smp_wait with one POSIX thread per selected CPU, created
 * already pinned there (pthread_attr_setaffinity_np), that waits in a
 * mailbox laid out like bare metal's (bare/smp/ap.h). Each thread runs
 * what it is given under its own guard (the guard's state is per thread,
 * platform/guard.c), so a fault in a benchmark there is caught on that
 * thread: it is reported in the mailbox (smp_wait: SMP_LOST) and the thread
 * ends, the way a faulting application processor is parked. The main
 * thread's waits are bounded by CLOCK_MONOTONIC deadlines. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpu/topology/apic_id.h"
#include "hosted.h"
#include "platform/fault.h"
#include "platform/guard.h"
#include "platform/mailbox.h"

/* One thread's mailbox (platform/mailbox.h) and what it reports of itself,
 * alone in its cache lines (128 bytes: the adjacent-line prefetcher fetches
 * pairs). */
struct host_box {
    struct mailbox mb;
    volatile uint32_t apic_id, core_type;
    int cpu;                          /* Linux's CPU number it is pinned to */
    uint32_t fault_apic;              /* smpfault=: fault while checking in if it is this one */
    struct fault_info fault;          /* MAILBOX_FAULTED: what its guard saw */
} __attribute__((aligned(128)));

static struct host_box boxes[SMP_MAX_CPUS];

#define ALT_STACK (64 * 1024)
/* An idle worker spins with PAUSE this long after its last command (the
 * smp/ measurements post one command after another), then sleeps on a
 * futex over its cmd word until smp_call wakes it: a ring-3 thread spinning
 * or polling through the whole run would take CPU time and wake-ups from
 * the machine, next to the core being measured, for nothing. */
#define SPIN_NS 20000000ull

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void cpu_pause(void)
{
    __asm__ volatile("rep; nop" ::: "memory"); /* PAUSE (F3 90), SDM Vol. 2B */
}

static void check_in(void *arg)
{
    struct host_box *box = arg;
    uint32_t id;
    unsigned type;
    cpu_identify_self(&id, &type);
    box->apic_id = id;
    box->core_type = type;
    if (box->fault_apic != SMP_NO_FAULT && id == box->fault_apic)
        __asm__ volatile("ud2"); /* smpfault=: the test of this thread's guard */
}

static void call(void *arg)
{
    mailbox_call(&((struct host_box *)arg)->mb);
}

/* futex(2): FUTEX_WAIT sleeps only while *word still holds `expected`
 * (checked atomically in the kernel), so a wake that comes first is not
 * lost; FUTEX_WAKE wakes the sleepers. */
static void futex_wait(volatile uint32_t *word, uint32_t expected)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(volatile uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Waits until the main thread posts a command. */
static void wait_for_cmd(struct host_box *box)
{
    uint64_t since = now_ns();
    for (uint32_t spins = 0; !box->mb.cmd; spins++) {
        if ((spins & 0xfff) == 0 && now_ns() - since > SPIN_NS)
            futex_wait(&box->mb.cmd, 0);
        else
            cpu_pause();
    }
}

static int guarded(struct host_box *box, guarded_fn fn)
{
    struct fault_info info;
    if (guard_run(fn, box, &info) == 0)
        return 0;
    box->fault = info;
    __asm__ volatile("" ::: "memory");
    box->mb.state = MAILBOX_FAULTED;
    return 1;
}

static void *worker(void *arg)
{
    struct host_box *box = arg;
    hosted_guard_thread(malloc(ALT_STACK), ALT_STACK);
    if (guarded(box, check_in))
        return NULL;
    box->mb.state = MAILBOX_READY; /* the main thread waits for this */
    for (;;) {
        wait_for_cmd(box);
        if (guarded(box, call))
            return NULL; /* parked for good: the run abandons this processor */
        mailbox_end(&box->mb);
    }
}

/* Waits up to ms for done(box); returns the microseconds that passed. */
static uint32_t wait_until(struct host_box *box, bool (*done)(const struct host_box *), uint32_t ms)
{
    uint64_t start = now_ns(), end = start + (uint64_t)ms * 1000000ull;
    for (uint32_t spins = 0; !done(box); spins++) {
        if ((spins & 0xff) == 0 && now_ns() >= end)
            break;
        cpu_pause();
    }
    return (uint32_t)((now_ns() - start) / 1000u);
}

static bool answered(const struct host_box *box)
{
    return box->mb.state != MAILBOX_OFF;
}

static const char *spawn(struct host_box *box)
{
    pthread_attr_t attr;
    pthread_t th;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(box->cpu, &set);
    if (pthread_attr_init(&attr) != 0)
        return "pthread_attr_init failed";
    int err = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    if (!err)
        err = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (!err)
        err = pthread_create(&th, &attr, worker, box);
    pthread_attr_destroy(&attr);
    return err ? "no thread could be created pinned to its CPU (pthread_create)" : NULL;
}

static void start_one(unsigned slot, const struct smp_request *req, struct smp_cpu *c)
{
    struct host_box *box = &boxes[slot];
    memset((void *)box, 0, sizeof *box);
    box->cpu = hosted_cpu_of(c->apic_id);
    box->fault_apic = req->fault_apic_id;
    c->state = SMP_NO_ANSWER;
    if (box->cpu < 0) {
        c->why = "no CPU the process may run on has this APIC ID";
        return;
    }
    c->why = spawn(box);
    if (c->why)
        return;
    c->answer_us = wait_until(box, answered, req->answer_ms);
    if (!answered(box))
        return;
    c->reported_apic_id = box->apic_id;
    c->core_type = box->core_type;
    c->state = box->mb.state == MAILBOX_FAULTED ? SMP_FAULTED : SMP_STARTED;
    c->mode = sizeof(void *) * 8; /* a thread runs in the process's mode: 64 in cyclekit-hosted64 */
    c->fault_vector = box->fault.vector;
    c->fault_eip = box->fault.eip;
    c->fault_error = box->fault.error_code;
}

void hosted_smp_start(const struct smp_request *req, struct smp_info *out)
{
    static char pinned[96];
    unsigned type;
    int main_cpu = hosted_pinned_cpu();
    /* The main thread's APIC ID as the list has it (under a hypervisor a
     * vCPU's CPUID may not keep one APIC ID for ever: the list is what the
     * run names processors by). */
    if (main_cpu < 0 || !hosted_apic_of(main_cpu, &out->bsp_apic_id))
        cpu_identify_self(&out->bsp_apic_id, &type);
    out->method = "POSIX threads, each pinned to its CPU (pthread_attr_setaffinity_np)";
    if (main_cpu >= 0)
        snprintf(pinned, sizeof pinned, "the main thread is pinned to CPU %d, where it started", main_cpu);
    else
        snprintf(pinned, sizeof pinned, "the main thread could not be pinned: it may migrate");
    out->pinned = pinned;
    for (unsigned i = 0; i < req->n && out->n < SMP_MAX_CPUS; i++) {
        struct smp_cpu *c = &out->cpus[out->n];
        memset(c, 0, sizeof *c);
        c->apic_id = req->apic_ids[i];
        c->state = SMP_BSP;
        if (c->apic_id != out->bsp_apic_id)
            start_one(out->n, req, c);
        out->n++;
    }
}

bool hosted_smp_call(unsigned slot, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg)
{
    if (slot >= SMP_MAX_CPUS || !mailbox_post(&boxes[slot].mb, fn, arg))
        return false;
    futex_wake(&boxes[slot].mb.cmd); /* in case it sleeps (a syscall, before anything is timed) */
    return true;
}

static bool finished(const struct host_box *box)
{
    return mailbox_finished(&box->mb);
}

int hosted_smp_wait(unsigned slot, uint32_t ms, uintptr_t *result)
{
    struct host_box *box = &boxes[slot];
    if (!finished(box))
        wait_until(box, finished, ms);
    return mailbox_outcome(&box->mb, result);
}
