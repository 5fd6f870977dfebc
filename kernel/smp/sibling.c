/* Sibling interference (see sibling.h). */
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "lib/kstring.h"
#include "sibling.h"
#include "smp_bounds.h"
#include "sibling_kernels.h"

#define SPIN_LIMIT (1u << 28)   /* the antagonist's bound in rounds, should the stop never come */
#define CHUNK_ROUNDS 64u        /* rounds between two looks at the stop flag */

static struct {
    volatile uint32_t stop __attribute__((aligned(128)));
    uint8_t pad[124];
    volatile uint64_t best;
    volatile uint32_t kernel;   /* the kernel the next call runs */
} shared __attribute__((aligned(128)));

/* One buffer per role, apart from each other and from `shared`: the load
 * and store kernels touch only their own thread's lines. */
static uint8_t buffers[2][SIBLING_BUF_BYTES] __attribute__((aligned(4096)));

/* The body: SIBLING_OPS operations of the chosen kernel, min of
 * SIBLING_REPEATS, each timed with the TSC. */
static uintptr_t timed_body(uintptr_t arg)
{
    (void)arg;
    const struct sibling_kernel *k = &sibling_kernels[shared.kernel];
    uint64_t best = ~0ull;
    for (unsigned r = 0; r < SIBLING_REPEATS; r++) {
        uint64_t t0 = cpu_rdtsc_native();
        k->run(SIBLING_OPS / SIBLING_OPS_PER_ROUND, buffers[0]);
        uint64_t t = cpu_rdtsc_native() - t0;
        if (t < best)
            best = t;
    }
    shared.best = best;
    return 1;
}

/* The busy sibling: the antagonist until told to stop (bounded). */
static uintptr_t busy_body(uintptr_t arg)
{
    const struct sibling_kernel *k = &sibling_kernels[arg];
    for (uint32_t rounds = 0; !shared.stop && rounds < SPIN_LIMIT; rounds += CHUNK_ROUNDS)
        k->run(CHUNK_ROUNDS, buffers[1]);
    return 1;
}

static bool timed_on(const struct platform *p, unsigned slot, uint64_t *ticks)
{
    if (slot == SMP_SLOT_BOOT)
        timed_body(0);
    else if (!p->smp_call(slot, timed_body, 0) || p->smp_wait(slot, SMP_WAIT_MS, 0) != SMP_DONE)
        return false;
    *ticks = shared.best;
    return true;
}

/* The first running pair of SMT siblings: slots (SMP_SLOT_BOOT for the boot one). */
static bool find_pair(const struct smp_info *s, unsigned smt_bits, unsigned *a, unsigned *b)
{
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned j = 0; j < s->n; j++) {
            const struct smp_cpu *x = &s->cpus[i], *y = &s->cpus[j];
            bool run_x = x->state == SMP_BSP || x->state == SMP_STARTED;
            bool run_y = y->state == SMP_STARTED; /* the busy one takes work by mailbox */
            if (i != j && run_x && run_y && (x->apic_id >> smt_bits) == (y->apic_id >> smt_bits)) {
                *a = x->state == SMP_BSP ? SMP_SLOT_BOOT : i;
                *b = j;
                return true;
            }
        }
    return false;
}

/* Why kernel id cannot run here (NULL: it can); body: the body, else the antagonist. */
static const char *missing(unsigned id, bool body)
{
    const struct sibling_kernel *k = &sibling_kernels[id];
    if (k->needs == FEAT_NONE || cpu_has(cpu, k->needs))
        return NULL;
    if (id == SIBK_SSE2)
        return body ? "the body sse2 needs SSE2: CPUID.01H:EDX bit 26 is clear"
                    : "the antagonist sse2 needs SSE2: CPUID.01H:EDX bit 26 is clear";
    return body ? "the body x87 needs an x87 FPU: CPUID.01H:EDX bit 0 is clear"
                : "the antagonist x87 needs an x87 FPU: CPUID.01H:EDX bit 0 is clear";
}

/* One pair: the body alone, then beside the antagonist. false: a processor
 * of the pair did not finish, the rest is not measured. */
static bool measure_pair(const struct platform *p, unsigned a, unsigned b, struct sibling_pair *pr)
{
    if ((pr->skip = missing(pr->antagonist, false)) != NULL)
        return true;
    if (!timed_on(p, a, &pr->alone)) {
        pr->skip = "the measured processor did not finish (abandoned)";
        return false;
    }
    shared.stop = 0;
    bool busy = sibling_kernels[pr->antagonist].run != NULL;
    if (busy && !p->smp_call(b, busy_body, pr->antagonist)) {
        pr->skip = "the sibling does not take work";
        return false;
    }
    bool ok = timed_on(p, a, &pr->loaded);
    shared.stop = 1;
    if ((busy && p->smp_wait(b, SMP_WAIT_MS, 0) != SMP_DONE) || !ok) {
        pr->skip = "a processor of the pair did not finish (abandoned)";
        return false;
    }
    return true;
}

void sibling_measure(const struct platform *p, const struct smp_info *s, const struct cpu_topology *t,
                     const struct sibling_choice *c, struct sibling_result *out)
{
    kmemset(out, 0, sizeof *out);
    out->body = c->body;
    unsigned a, b;
    if (!t->source || t->smt_bits == 0) {
        out->skip = "no SMT: CPUID gives one thread per core";
        return;
    }
    if ((out->skip = missing(c->body, true)) != NULL)
        return;
    if (!find_pair(s, t->smt_bits, &a, &b)) {
        out->skip = "no two running processors are SMT siblings";
        return;
    }
    out->measured_apic = a == SMP_SLOT_BOOT ? s->bsp_apic_id : s->cpus[a].apic_id;
    out->sibling_apic = s->cpus[b].apic_id;
    shared.kernel = c->body;
    for (unsigned i = 0; i < c->n; i++) {
        struct sibling_pair *pr = &out->pairs[out->n++];
        pr->antagonist = c->antagonist[i];
        if (!measure_pair(p, a, b, pr))
            break;  /* a processor was abandoned: the other pairs would wait on it too */
    }
}
