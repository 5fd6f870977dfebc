/* Why an interrupt, when the kernel otherwise runs with IF=0: a body that
 * never ends (a backward jump to itself) can only be stopped by something
 * that preempts it, and nothing a body does can stop a timer interrupt
 * short of CLI, which a loaded body could execute (ring 0) -- that case,
 * and a body that masks the APIC, is beyond any watchdog without NMI. NMI
 * is not usable here: the exception path returns without IRET, so after
 * one NMI further NMIs stay blocked (traps/isr.S).
 *
 * What guarantees it: the 8259s stay masked and every other local APIC LVT
 * entry stays masked (interrupts.c), so while armed the only interrupt that
 * can arrive is this timer's (and the spurious vector, ignored). The timer
 * is one-shot (SDM Vol. 3A §11.5.4 "APIC Timer": LVT timer mode 00, the
 * divide configuration register, the initial-count and current-count
 * registers), counting at the APIC's own clock, which is calibrated once
 * against the TSC whose rate the timer room measured. An expiry that comes
 * after disarming (pending in the IRR while IF was clear) is recognised by
 * the TSC: it is stale when less than the bound has passed since arming. */
#include "watchdog.h"
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "harness/timer.h"
#include "platform/fault.h"
#include "safe.h"

#define IA32_APIC_BASE 0x1b
#define APIC_GLOBAL_ENABLE (1u << 11)
#define REG_EOI 0xb0
#define REG_SVR 0xf0
#define REG_LVT_TIMER 0x320
#define REG_INITIAL 0x380
#define REG_CURRENT 0x390
#define REG_DIVIDE 0x3e0
#define LVT_MASKED (1u << 16)
#define SVR_ENABLE (1u << 8)
#define DIVIDE_BY_16 0x3

static uint32_t base;          /* the APIC's registers; 0: not set up */
static uint32_t per_ms;        /* APIC timer counts per millisecond */
static const char *why_not;
static volatile uint32_t armed_ms;
static volatile uint64_t armed_tsc;

static volatile uint32_t *reg(uint32_t off) { return (volatile uint32_t *)(uintptr_t)(base + off); }

static void timer_stop(void)
{
    *reg(REG_LVT_TIMER) = LVT_MASKED | VEC_WATCHDOG;
    *reg(REG_INITIAL) = 0;
}

/* Unmasked on `lvt` (vector and mode), counting down from `count` APIC
 * clocks (at least 1: a zero initial count stops the timer). */
static void timer_start(uint64_t count, uint32_t lvt)
{
    *reg(REG_LVT_TIMER) = lvt;
    *reg(REG_INITIAL) = count == 0 ? 1 : count > 0xffffffffu ? 0xffffffffu : (uint32_t)count;
}

/* Counts in 10 ms of TSC time, with the timer masked. */
static void calibrate(void)
{
    uint64_t wait = timer.hz / 100;
    *reg(REG_DIVIDE) = DIVIDE_BY_16;
    *reg(REG_LVT_TIMER) = LVT_MASKED | VEC_WATCHDOG;
    *reg(REG_INITIAL) = 0xffffffffu;
    uint64_t t0 = cpu_rdtsc_native();
    while (cpu_rdtsc_native() - t0 < wait)
        ;
    uint32_t left = *reg(REG_CURRENT);
    timer_stop();
    per_ms = (0xffffffffu - left) / 10;
}

static const char *setup(void)
{
    uint64_t msr = 0;
    if (!cpu_has(cpu, FEAT_APIC))
        return "no local APIC (CPUID 1.EDX.APIC): a loaded body that never ends cannot be stopped";
    if (!cpu_has(cpu, FEAT_TSC) || !timer.hz || timer.mode == READ_PIT)
        return "no calibrated TSC to measure the APIC timer against";
    if (rdmsr_safe(IA32_APIC_BASE, &msr) || !(msr & APIC_GLOBAL_ENABLE))
        return "the local APIC is disabled (IA32_APIC_BASE)";
    base = (uint32_t)msr & 0xfffff000u;
    *reg(REG_SVR) = SVR_ENABLE | VEC_APIC_SPURIOUS;
    calibrate();
    if (per_ms == 0) {
        base = 0;
        return "the APIC timer does not count";
    }
    return NULL;
}

static const char *set_up_once(void)
{
    static int tried;
    if (!tried) {
        tried = 1;
        why_not = setup();
    }
    return why_not;
}

const char *bare_watchdog(uint32_t ms)
{
    if (set_up_once())
        return why_not;
    __asm__ volatile("cli");
    armed_ms = 0;
    timer_stop();
    if (ms == 0)
        return NULL;
    armed_ms = ms;
    armed_tsc = cpu_rdtsc_native();
    timer_start((uint64_t)per_ms * ms, VEC_WATCHDOG); /* one-shot */
    __asm__ volatile("sti");
    return NULL;
}

uint32_t watchdog_fired(void)
{
    uint32_t ms = armed_ms;
    if (base)
        *reg(REG_EOI) = 0;
    if (!ms || cpu_rdtsc_native() - armed_tsc < (uint64_t)ms * (timer.hz / 1000) * 9 / 10)
        return 0;
    armed_ms = 0;
    timer_stop();
    return ms;
}

/* STI's one-instruction shadow (SDM Vol. 2B, STI) keeps the expiry from
 * being taken before HLT starts, and one that already fired waits in the
 * IRR and wakes HLT at once: no wake-up is lost. */
bool apic_nap(uint32_t us)
{
    if (set_up_once() || armed_ms)
        return false;
    timer_start((uint64_t)per_ms * us / 1000, VEC_WATCHDOG); /* one-shot */
    __asm__ volatile("sti; hlt; cli" ::: "memory");
    timer_stop();
    return true;
}

#define LVT_PERIODIC (1u << 17)

const char *apic_timer_periodic(uint32_t us, uint32_t vector)
{
    if (set_up_once())
        return why_not;
    if (armed_ms)
        return "the watchdog holds the APIC timer";
    timer_start((uint64_t)per_ms * us / 1000, vector | LVT_PERIODIC);
    return NULL;
}

void apic_timer_quiet(void)
{
    if (base && !armed_ms)
        timer_stop();
}
