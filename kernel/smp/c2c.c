/* Core-to-core ping-pong (see c2c.h). The pair's two sides run in the
 * started processors' mailboxes, or on the boot processor itself; each
 * wait is bounded by a spin count, so a side that never answers ends the
 * pair as a timeout instead of a hang. */
#include "c2c.h"
#include "smp_bounds.h"
#include "cpu/cpu_native.h"
#include "lib/kstring.h"
#include "stats/stats.h"


struct pair {
    volatile uint32_t line __attribute__((aligned(128)));
    uint8_t pad[124];
    bool rmw;
    volatile uint32_t timed_out;
    uint64_t ticks[C2C_WARMUP + C2C_ROUNDS];
} __attribute__((aligned(128)));

static struct pair pair;

static void bump(struct pair *pp, uint32_t value)
{
    if (pp->rmw)
        __sync_fetch_and_add(&pp->line, 1); /* LOCK XADD */
    else
        pp->line = value;
}

static uintptr_t pong(uintptr_t arg)
{
    struct pair *pp = (struct pair *)arg;
    for (uint32_t k = 0; k < C2C_WARMUP + C2C_ROUNDS; k++) {
        if (!smp_spin_until(&pp->line, 2 * k + 1)) {
            pp->timed_out = 1;
            return 0;
        }
        bump(pp, 2 * k + 2);
    }
    return 1;
}

static uintptr_t ping(uintptr_t arg)
{
    struct pair *pp = (struct pair *)arg;
    for (uint32_t k = 0; k < C2C_WARMUP + C2C_ROUNDS; k++) {
        uint64_t t0 = cpu_rdtsc_native();
        bump(pp, 2 * k + 1);
        if (!smp_spin_until(&pp->line, 2 * k + 2)) {
            pp->timed_out = 1;
            return 0;
        }
        pp->ticks[k] = cpu_rdtsc_native() - t0;
    }
    return 1;
}

static bool lost(const struct c2c_matrix *m, unsigned i)
{
    for (unsigned k = 0; k < m->lost; k++)
        if (m->lost_apic[k] == m->apic_id[i])
            return true;
    return false;
}

static void abandon(struct c2c_matrix *m, unsigned i)
{
    if (!lost(m, i) && m->lost < C2C_MAX)
        m->lost_apic[m->lost++] = m->apic_id[i];
}


/* One side to processor i's mailbox (nothing to post for the boot processor). */
static bool post(const struct platform *p, const struct c2c_matrix *m, unsigned i,
                 uintptr_t (*fn)(uintptr_t))
{
    return m->slot[i] == SMP_SLOT_BOOT || p->smp_call(m->slot[i], fn, (uintptr_t)&pair);
}

static enum c2c_cell finish(const struct platform *p, struct c2c_matrix *m, unsigned i)
{
    if (m->slot[i] == SMP_SLOT_BOOT)
        return C2C_MEASURED;
    int w = p->smp_wait(m->slot[i], SMP_WAIT_MS, NULL);
    if (w != SMP_DONE) {
        abandon(m, i);
        return C2C_LOST;
    }
    return C2C_MEASURED;
}

static void one_pair(const struct platform *p, struct c2c_matrix *m, unsigned i, unsigned j)
{
    kmemset((void *)&pair, 0, sizeof pair);
    pair.rmw = m->variant[0] == 'r';
    if (!post(p, m, j, pong)) {
        m->cell[i][j] = C2C_LOST;
        return;
    }
    if (!post(p, m, i, ping))
        pair.timed_out = 1; /* the pong side gives up after its spin limit */
    else if (m->slot[i] == SMP_SLOT_BOOT)
        ping((uintptr_t)&pair);
    else if (m->slot[j] == SMP_SLOT_BOOT)
        pong((uintptr_t)&pair);
    enum c2c_cell a = finish(p, m, i), b = finish(p, m, j);
    if (a == C2C_LOST || b == C2C_LOST) {
        m->cell[i][j] = C2C_LOST;
        return;
    }
    if (pair.timed_out) {
        m->cell[i][j] = C2C_TIMEOUT;
        return;
    }
    uint64_t *t = pair.ticks + C2C_WARMUP;
    stats_sort(t, C2C_ROUNDS);
    m->min[i][j] = t[0];
    m->median[i][j] = t[C2C_ROUNDS / 2];
    m->cell[i][j] = C2C_MEASURED;
}

void c2c_measure(const struct platform *p, const struct smp_info *s, bool rmw, uint64_t hz,
                 struct c2c_matrix *m)
{
    kmemset(m, 0, sizeof *m);
    m->variant = rmw ? "rmw" : "store";
    m->hz = hz;
    for (unsigned k = 0; k < s->n && m->n < C2C_MAX; k++) {
        const struct smp_cpu *c = &s->cpus[k];
        if (c->state != SMP_BSP && c->state != SMP_STARTED)
            continue;
        m->apic_id[m->n] = c->apic_id;
        m->slot[m->n++] = c->state == SMP_BSP ? SMP_SLOT_BOOT : k;
    }
    for (unsigned i = 0; i < m->n; i++)
        for (unsigned j = 0; j < m->n; j++) {
            if (i == j)
                continue;
            if (lost(m, i) || lost(m, j))
                m->cell[i][j] = C2C_LOST;
            else
                one_pair(p, m, i, j);
        }
}
