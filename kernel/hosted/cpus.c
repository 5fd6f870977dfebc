/* The processors of the hosted runner: the CPUs sched_getaffinity(2) lets
 * the process run on at start-up, each with the APIC ID that a thread
 * pinned to it reads from its own CPUID (the rule of cpu/topology/apic_id.h,
 * the same an application processor applies on bare metal). Linux's CPU
 * numbers are not APIC IDs; the run names processors by APIC ID, so this
 * list is the translation. The main thread is pinned here too, to the CPU
 * it started on. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "cpu/cpu_native.h"
#include "cpu/topology/apic_id.h"
#include "hosted.h"
#include "record/log.h"

static struct platform_hosted_cpu known[PLATFORM_HOSTED_CPUS];
static unsigned nknown;
static int pinned_cpu = -1;

/* One CPU for the whole run: a migration in the middle of a sample would
 * mix two cores' caches and predictors into one number. */
void hosted_pin_to_current_cpu(void)
{
    int here = sched_getcpu();
    cpu_set_t set;
    if (here < 0)
        return;
    CPU_ZERO(&set);
    CPU_SET(here, &set);
    if (sched_setaffinity(0, sizeof set, &set) == 0)
        pinned_cpu = here;
}

int hosted_pinned_cpu(void)
{
    return pinned_cpu;
}

struct probe {
    int cpu;
    uint32_t apic_id;
    bool off_cpu;
};

static void *probe_thread(void *arg)
{
    struct probe *p = arg;
    unsigned core_type;
    p->off_cpu = sched_getcpu() != p->cpu;
    cpu_identify_self(&p->apic_id, &core_type);
    return NULL;
}

/* One short-lived thread, created already pinned to cpu (so its CPUID
 * executes there and nowhere else). NULL when measured. */
static const char *measure_one(int linux_cpu, uint32_t *apic_id)
{
    pthread_attr_t attr;
    pthread_t th;
    cpu_set_t set;
    struct probe p = { linux_cpu, 0, false };
    CPU_ZERO(&set);
    CPU_SET(linux_cpu, &set);
    if (pthread_attr_init(&attr) != 0)
        return "pthread_attr_init failed";
    int err = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    if (!err)
        err = pthread_create(&th, &attr, probe_thread, &p);
    pthread_attr_destroy(&attr);
    if (err)
        return err == EINVAL ? "the process may not run there (pthread_create with its affinity: EINVAL)"
                             : "a thread pinned there could not be created";
    pthread_join(th, NULL);
    if (p.off_cpu)
        return "a thread pinned there ran elsewhere";
    *apic_id = p.apic_id;
    return NULL;
}

static bool hosted_listed_before(const struct platform_hosted_info *h, unsigned k, uint32_t apic_id)
{
    for (unsigned i = 0; i < k; i++)
        if (!h->cpus[i].why && h->cpus[i].apic_id == apic_id)
            return true;
    return false;
}

void hosted_cpus_list(struct platform_hosted_info *h)
{
    cpu_set_t allowed;
    h->ncpus = 0;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    for (int n = 0; n < CPU_SETSIZE && h->ncpus < PLATFORM_HOSTED_CPUS; n++) {
        if (!CPU_ISSET(n, &allowed))
            continue;
        struct platform_hosted_cpu *c = &h->cpus[h->ncpus++];
        c->cpu = n;
        c->apic_id = 0;
        c->why = measure_one(n, &c->apic_id);
        if (!c->why && hosted_listed_before(h, h->ncpus - 1, c->apic_id))
            c->why = "its CPUID gives the APIC ID of a CPU listed before it (an emulator's CPUID, "
                     "as under qemu-i386?): the run could not tell them apart";
        if (c->why)
            log_note("warn", "smp", "CPU %d is not used: %s", n, c->why);
    }
    memcpy(known, h->cpus, sizeof known);
    nknown = h->ncpus;
}

bool hosted_apic_of(int linux_cpu, uint32_t *apic_id)
{
    for (unsigned i = 0; i < nknown; i++)
        if (!known[i].why && known[i].cpu == linux_cpu) {
            *apic_id = known[i].apic_id;
            return true;
        }
    return false;
}

int hosted_cpu_of(uint32_t apic_id)
{
    for (unsigned i = 0; i < nknown; i++)
        if (!known[i].why && known[i].apic_id == apic_id)
            return known[i].cpu;
    return -1;
}
