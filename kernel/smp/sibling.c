/* Sibling interference (see sibling.h). */
#include "cpu/cpu_native.h"
#include "lib/kstring.h"
#include "sibling.h"

#define SPIN_LIMIT (1u << 28)
#define BOOT ((unsigned)-1)

static struct {
    volatile uint32_t stop __attribute__((aligned(128)));
    uint8_t pad[124];
    volatile uint64_t best;
} shared __attribute__((aligned(128)));

/* SIBLING_ADDS dependent ADDs in a counted loop (the loop's DEC and JNZ
 * run beside the chain); the min of SIBLING_REPEATS. */
static uintptr_t timed_body(uintptr_t arg)
{
    (void)arg;
    uint64_t best = ~0ull;
    for (unsigned r = 0; r < SIBLING_REPEATS; r++) {
        uint32_t n = SIBLING_ADDS / 4, x = 1;
        uint64_t t0 = cpu_rdtsc_native();
        __asm__ volatile("1: addl %0, %0\n addl %0, %0\n addl %0, %0\n addl %0, %0\n decl %1\n jnz 1b"
                         : "+r"(x), "+r"(n) : : "cc");
        uint64_t t = cpu_rdtsc_native() - t0;
        if (t < best)
            best = t;
    }
    shared.best = best;
    return 1;
}

/* The busy sibling: the same chain until told to stop (bounded). */
static uintptr_t busy_body(uintptr_t arg)
{
    (void)arg;
    for (uint32_t rounds = 0; !shared.stop && rounds < SPIN_LIMIT / 64; rounds++) {
        uint32_t n = 64, x = 1;
        __asm__ volatile("1: addl %0, %0\n addl %0, %0\n addl %0, %0\n addl %0, %0\n decl %1\n jnz 1b"
                         : "+r"(x), "+r"(n) : : "cc");
    }
    return 1;
}

static bool timed_on(const struct platform *p, unsigned slot, uint64_t *ticks)
{
    if (slot == BOOT)
        timed_body(0);
    else if (!p->smp_call(slot, timed_body, 0) || p->smp_wait(slot, 5000, 0) != SMP_DONE)
        return false;
    *ticks = shared.best;
    return true;
}

/* The first running pair of SMT siblings: slots (BOOT for the boot one). */
static bool find_pair(const struct smp_info *s, unsigned smt_bits, unsigned *a, unsigned *b)
{
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned j = 0; j < s->n; j++) {
            const struct smp_cpu *x = &s->cpus[i], *y = &s->cpus[j];
            bool run_x = x->state == SMP_BSP || x->state == SMP_STARTED;
            bool run_y = y->state == SMP_STARTED; /* the busy one takes work by mailbox */
            if (i != j && run_x && run_y && (x->apic_id >> smt_bits) == (y->apic_id >> smt_bits)) {
                *a = x->state == SMP_BSP ? BOOT : i;
                *b = j;
                return true;
            }
        }
    return false;
}

void sibling_measure(const struct platform *p, const struct smp_info *s, const struct cpu_topology *t,
                     struct sibling_result *out)
{
    kmemset(out, 0, sizeof *out);
    unsigned a, b;
    if (!t->source || t->smt_bits == 0) {
        out->skip = "no SMT: CPUID gives one thread per core";
        return;
    }
    if (!find_pair(s, t->smt_bits, &a, &b)) {
        out->skip = "no two running processors are SMT siblings";
        return;
    }
    out->measured_apic = a == BOOT ? s->bsp_apic_id : s->cpus[a].apic_id;
    out->sibling_apic = s->cpus[b].apic_id;
    if (!timed_on(p, a, &out->alone)) {
        out->skip = "the measured processor did not finish (abandoned)";
        return;
    }
    shared.stop = 0;
    if (!p->smp_call(b, busy_body, 0)) {
        out->skip = "the sibling does not take work";
        return;
    }
    bool ok = timed_on(p, a, &out->loaded);
    shared.stop = 1;
    if (p->smp_wait(b, 5000, 0) != SMP_DONE || !ok)
        out->skip = "a processor of the pair did not finish (abandoned)";
}
