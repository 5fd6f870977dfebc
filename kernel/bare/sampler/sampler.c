/* Bare metal's sampler (sampler.h). Event-based: general counter 0
 * preloaded with -period, its INT bit set, the PMI on the LVT
 * performance-counter entry (xAPIC 0xFEE00340), which the APIC masks on
 * delivery and the handler unmasks when it re-arms (SDM Vol. 3A §11.5.1,
 * "Local Vector Table"; Vol. 3B §20.6.3). Time-based: the APIC timer
 * periodic, else the PIT (sampler_pit.c).
 *
 * The period between samples is what the body runs between two
 * interrupts. After the re-arm the counter also counts the handler's tail
 * (its return); for instructions and branches that tail is measured once
 * on the sled (sled.S) and added to the preload, so `period` events of the
 * body lie between samples. A period shorter than the handler's own events
 * storms: the next PMI waits at the handler's return, on one instruction
 * again and again; that is seen (the same pointer SAME_IP_MAX times, or one
 * inside the handler) and re-arming stops, and SAMPLE_IPS_MAX caps any run. */
#include "sampler.h"
#include "bare/io.h"
#include "bare/traps/sample_hook.h"
#include "platform/platform.h"
#include "bare/smp/lapic.h"
#include "bare/traps/watchdog.h"
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "harness/sample.h"
#include "harness/timer.h"
#include "platform/fault.h"
#include "pmu/pmu_overflow.h"

#define REG_EOI 0xb0
#define REG_LVT_PERF 0x340
#define LVT_MASKED (1u << 16)
#define LVT_NMI (4u << 8)            /* delivery mode 100b */
#define SAME_IP_MAX 64
#define SAMPLER_CTR 0                /* the counter that samples */
#define SLED_FIRST 100               /* the yardstick's first preload */
#define SLED_SECOND 300              /* and its re-arm's */

enum how { OFF, PMI, APIC_TIMER, PIT, CYCLES };

struct sampler_state {
    enum how how;
    bool nmi, calibrating, storm, capped;
    struct pmu_driver *d;
    uint64_t reload;                 /* events preloaded at each re-arm */
    uint32_t taken, max, same_ip, bound_ms;
    uint64_t last_ip, t0;
    const char *stopped;
    struct cycle_step *step;         /* CYCLES: where the handler writes */
    unsigned insn_ctr;
};
static struct sampler_state st;

static struct lapic apic;
static bool apic_usable;             /* lapic_open said yes */
extern const char isr_common[], isr_common_end[];
extern const char sampler_sled_start[], sampler_sled_end[];
void sampler_sled(uint32_t msr, uint32_t value);

static bool apic_found(void)
{
    static bool tried;
    if (!tried) {
        tried = true;
        apic_usable = lapic_open(&apic) == NULL;
    }
    return apic_usable;
}

static void install(bool nmi);
static void nmi_at_cmos(bool open);

/* The P5's counter interrupt: its PM0 pin, which an EBS socket wires to
 * the NMI input; no APIC entry is involved (seed 004, section 3.3). */
static bool pin_nmi(const struct pmu_driver *d) { return d->kind == PMU_P5; }

static uint32_t lvt_perf(void) { return st.nmi ? LVT_NMI : VEC_SAMPLE; }

static const char *refusal(const struct sample_spec *spec)
{
    if (spec->source == SAMPLE_TIME)
        return NULL; /* the APIC timer, else the PIT: every PC has one */
    const char *why = pmu_overflow_refusal(spec->drv, spec->nmi);
    if (why)
        return why;
    if (!pin_nmi(spec->drv) && !apic_found())
        return "no enabled local APIC to deliver the counter's interrupt";
    return NULL;
}

/* The counter preloaded and its interrupt unmasked (the handler's and
 * start's), in this order: an overflow that meets a masked entry is lost
 * for good (its status bit set, no PMI), so the entry is open before the
 * preload can wrap, even within the handler (a period of 1). */
static void arm_counter(uint64_t events)
{
    (void)pmu_overflow_ack(st.d, 1u << SAMPLER_CTR);
    if (!pin_nmi(st.d))
        (void)lapic_write(&apic, REG_LVT_PERF, lvt_perf());
    (void)pmu_overflow_load(st.d, SAMPLER_CTR, events);
}

static void counters_off(void)
{
    (void)pmu_stop(st.d); /* IA32_PERF_GLOBAL_CTRL (or a P5's CESR) to 0 first */
    (void)pmu_overflow_ack(st.d, ~0ull >> 32);
    if (pin_nmi(st.d))
        nmi_at_cmos(false);
    else
        (void)lapic_write(&apic, REG_LVT_PERF, LVT_MASKED | VEC_SAMPLE);
}

/* The NMI input, masked at the CMOS index port for the whole run
 * (interrupts.c), is opened for a P5's pin-delivered samples only. */
static void nmi_at_cmos(bool open)
{
    uint8_t index = inb(0x70) & 0x7f;
    outb(0x70, open ? index : (uint8_t)(index | 0x80));
}

/* Two PMIs on the sled: the first says the skid, the gap to the second
 * the handler's tail (sled jumps the re-arm's preload did not reach). */
static bool sled_measure(const struct sample_spec *spec, int32_t *skid, int32_t *tail)
{
    st = (struct sampler_state){ .how = PMI, .d = spec->drv, .nmi = spec->nmi, .calibrating = true,
                       .reload = SLED_SECOND, .max = 2 };
    sample_reset();
    (void)pmu_overflow_enable(st.d, 0);
    (void)pmu_overflow_program(st.d, SAMPLER_CTR, spec->sel, true);
    install(spec->nmi);
    arm_counter(SLED_FIRST);
    uint32_t msr;
    uint64_t value;
    pmu_overflow_enable_write(st.d, 1u << SAMPLER_CTR, &msr, &value);
    if (pin_nmi(st.d))
        nmi_at_cmos(true);
    __asm__ volatile("sti" ::: "memory");
    sampler_sled(msr, (uint32_t)value);
    __asm__ volatile("cli" ::: "memory");
    counters_off();
    st.how = OFF;
    uint64_t lo = (uintptr_t)sampler_sled_start, hi = (uintptr_t)sampler_sled_end;
    if (sample_buf.n < 2 || sample_buf.ip[0] < lo || sample_buf.ip[1] < lo || sample_buf.ip[1] >= hi)
        return false;
    int32_t i1 = (int32_t)((sample_buf.ip[0] - lo) / 2), i2 = (int32_t)((sample_buf.ip[1] - lo) / 2);
    *skid = i1 - SLED_FIRST;
    *tail = SLED_SECOND - (i2 - i1);
    sample_reset();
    return *tail >= 0;
}

/* The yardstick's word on the run start() armed (the skid hook reports it). */
static struct {
    bool known;
    int32_t skid, tail;
    const char *why;
} sled;

static void sled_take(const struct sample_spec *spec)
{
    sled.known = false;
    if (spec->source != SAMPLE_EVENT)
        sled.why = "a timer's interrupt follows no event";
    else if (!pmu_overflow_one_per_instruction(spec->drv, spec->sel))
        sled.why = "measured with instructions or branches retired only (one event per sled jump)";
    else if (!(sled.known = sled_measure(spec, &sled.skid, &sled.tail)))
        sled.why = "the sled's interrupts did not land on the sled";
}

static bool skid(int32_t *insns, const char **why)
{
    *insns = sled.skid;
    *why = sled.why;
    return sled.known;
}

static const char *start(const struct sample_spec *spec)
{
    sled_take(spec);
    st = (struct sampler_state){ .how = OFF, .d = spec->drv, .nmi = spec->nmi, .max = spec->max_samples,
                       .bound_ms = spec->bound_ms, .t0 = cpu_has(cpu, FEAT_TSC) ? cpu_rdtsc_native() : 0 };
    install(spec->nmi);
    if (spec->source == SAMPLE_EVENT) {
        st.reload = spec->period + (sled.known ? (uint64_t)sled.tail : 0);
        (void)pmu_overflow_enable(st.d, 0);
        if (pmu_overflow_program(st.d, SAMPLER_CTR, spec->sel, true) != 0)
            return "the counter could not be programmed";
        st.how = PMI;
        arm_counter(spec->period);
        if (pin_nmi(st.d))
            nmi_at_cmos(true);
        (void)pmu_overflow_enable(st.d, 1u << SAMPLER_CTR);
    } else if (apic_found() && apic_timer_periodic((uint32_t)spec->period, VEC_SAMPLE) == NULL) {
        st.how = APIC_TIMER;
    } else {
        st.how = PIT;
        pit_sampling_start((uint32_t)spec->period);
    }
    __asm__ volatile("sti" ::: "memory");
    return NULL;
}

static const char *delivery(void)
{
    switch (st.how) {
    case PMI: return pin_nmi(st.d) ? "NMI from the P5's PM0 pin (an EBS socket)"
                     : st.nmi ? "PMI, local APIC LVT as NMI" : "PMI, local APIC vector 34";
    case APIC_TIMER: return "local APIC timer, periodic, vector 34";
    case PIT: return "8254 channel 0 on IRQ 0 (8259), vector 40";
    default: return "none";
    }
}

static void stop(struct sample_end *end)
{
    __asm__ volatile("cli" ::: "memory");
    *end = (struct sample_end){ .delivery = delivery(), .taken = st.taken, .storm = st.storm,
                                .capped = st.capped, .stopped = st.stopped,
                                .handler_lo = (uintptr_t)isr_common, .handler_hi = (uintptr_t)isr_common_end };
    if (st.how == PMI || st.how == CYCLES)
        counters_off();
    else if (st.how == APIC_TIMER)
        apic_timer_quiet();
    else if (st.how == PIT)
        pit_sampling_stop();
    st.how = OFF;
    fault_sample_nmi = false;
}

/* Whether the run goes on being sampled after this one. A storm is
 * SAME_IP_MAX interrupts in a row at the handler's own return (the 32-bit
 * stub takes a pending one right after its POPF) or, for counter
 * overflows, on one instruction again and again (the 64-bit stub's IRETQ
 * returns first). One tick of a timer that came while the handler ran (an
 * emulator runs its first pass slowly) is no storm: it is counted as the
 * handler's and the run goes on. */
static bool keep_going(uint64_t ip)
{
    bool in_handler = ip >= (uintptr_t)isr_common && ip < (uintptr_t)isr_common_end;
    bool again = in_handler || (st.how == PMI && ip == st.last_ip);
    st.same_ip = again ? st.same_ip + 1 : 0;
    st.last_ip = ip;
    if (st.same_ip >= SAME_IP_MAX)
        st.storm = true;
    if (st.storm)
        st.stopped = "an interrupt storm: the period is shorter than the handler's own events, so each "
                     "interrupt waited at the handler's return; sampling stopped";
    if (st.taken >= st.max && !st.storm) {
        st.capped = true;
        st.stopped = st.calibrating ? NULL : "the sample buffer is full; sampling stopped";
    }
    return !st.storm && !st.capped;
}

static void eoi(void)
{
    if (apic_usable && !st.nmi)
        (void)lapic_write(&apic, REG_EOI, 0);
}

static uint32_t overran(void)
{
    if (!st.bound_ms || !st.t0 || !timer.hz)
        return 0;
    return cpu_rdtsc_native() - st.t0 > (uint64_t)st.bound_ms * (timer.hz / 1000) ? st.bound_ms : 0;
}

static void cycles_taken(uint64_t ip)
{
    uint64_t insns = 0;
    (void)pmu_read(st.d, st.insn_ctr, &insns);   /* first: the handler's own few are a constant */
    (void)pmu_overflow_enable(st.d, 0);
    st.step->taken = true;
    st.step->retired = insns;
    st.step->ip = ip;
    eoi();
}

uint32_t sampler_interrupt(uint32_t vector, uint64_t ip)
{
    if (vector > VEC_SAMPLE && vector < VEC_IRQ0)
        return 0; /* never raised: no source is programmed with these */
    if (vector >= VEC_IRQ0) {
        if (st.how == PIT && vector == VEC_IRQ0) {
            sample_hit(ip);
            st.taken++;
            if (!keep_going(ip))
                pit_sampling_stop();
        }
        pit_sampling_eoi(vector);
        return st.how == PIT ? overran() : 0;
    }
    if (st.how == CYCLES) {
        cycles_taken(ip);
        return 0;
    }
    if (st.how == OFF) { /* a stale one, pending from before the stop */
        eoi();
        return 0;
    }
    sample_hit(ip);
    st.taken++;
    bool more = keep_going(ip);
    if (st.how == PMI) {
        if (more)
            arm_counter(st.reload);
        else
            (void)pmu_overflow_enable(st.d, 0);
    } else if (!more) {
        apic_timer_quiet();
    }
    eoi();
    return overran();
}

static void install(bool nmi)
{
    fault_sample_hook = sampler_interrupt;
    fault_sample_nmi = nmi;
}

static const char *cycle_step(struct pmu_driver *d, const struct pmu_eventsel *cycles,
                              const struct pmu_eventsel *insns, uint32_t k, void (*run)(void *ctx), void *ctx,
                              struct cycle_step *out)
{
    const char *why = pmu_overflow_refusal(d, false);
    if (why || !apic_found())
        return why ? why : "no enabled local APIC to deliver the counter's interrupt";
    *out = (struct cycle_step){ .k = k };
    st = (struct sampler_state){ .how = CYCLES, .d = d, .step = out, .insn_ctr = 1 };
    (void)pmu_overflow_enable(d, 0);
    if (pmu_overflow_program(d, SAMPLER_CTR, cycles, true) || pmu_overflow_program(d, 1, insns, false))
        return "the cycles and instructions counters could not be programmed";
    (void)pmu_overflow_load(d, 1, 0);
    install(false);
    arm_counter(k);
    __asm__ volatile("sti" ::: "memory");
    (void)pmu_overflow_enable(d, 3);
    run(ctx);
    __asm__ volatile("cli" ::: "memory");
    counters_off();
    st.how = OFF;
    return NULL;
}

const struct platform_sampler bare_sampler = {
    .refusal = refusal,
    .start = start,
    .stop = stop,
    .skid = skid,
    .cycle_step = cycle_step,
};
