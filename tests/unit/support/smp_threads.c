/* See smp_threads.h. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include "platform/smp.h"
#include "smp_threads.h"

struct call { pthread_t thread; uintptr_t (*fn)(uintptr_t); uintptr_t arg, result; };
static struct call calls[SMP_MAX_CPUS];
unsigned smp_threads_silent = SMP_THREADS_NONE, smp_threads_lost = SMP_THREADS_NONE;
uint32_t smp_threads_spin_limit = SMP_THREADS_SPINS;

static void *thread_main(void *p)
{
    struct call *c = p;
    c->result = c->fn(c->arg);
    return NULL;
}

bool smp_threads_call(unsigned slot, uintptr_t (*fn)(uintptr_t), uintptr_t arg)
{
    if (slot == smp_threads_silent)
        return true; /* takes the work and never runs it: a hung processor */
    calls[slot] = (struct call){ .fn = fn, .arg = arg };
    return pthread_create(&calls[slot].thread, NULL, thread_main, &calls[slot]) == 0;
}

int smp_threads_wait(unsigned slot, uint32_t ms, uintptr_t *result)
{
    (void)ms;
    if (slot == smp_threads_silent)
        return SMP_BUSY;
    pthread_join(calls[slot].thread, NULL);
    if (result)
        *result = calls[slot].result;
    return slot == smp_threads_lost ? SMP_LOST : SMP_DONE;
}

void smp_threads_share_one_core(void)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    sched_setaffinity(0, sizeof one, &one);
}

void smp_threads_relax(void)
{
    sched_yield();
}
