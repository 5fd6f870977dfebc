#include "cpu/cpu.h"
#include "cpu/cpu_models.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "plan.h"
#include "timer.h"
#include "trust.h"

struct trust trust;

/* A dependent ADD is one core cycle on every x86 since the 486. Ticks per
 * ADD outside this window mean the counter does not follow the core's work:
 * an emulator, or a hypervisor trapping ring 0. */
#define PLAUSIBLE_MIN_X100 20   /* 0.2 ticks per cycle: a TSC 5x slower than the core */
#define PLAUSIBLE_MAX_X100 400  /* 4 ticks per cycle */

void trust_check(const struct plan *pl, const struct bench_ctx *ctx)
{
    trust = (struct trust){ 0 };
    static struct measurement m;
    struct plan ref = *pl;
    ref.unroll = MEASURE_REF_UNROLL;
    ref.loops = MEASURE_REF_LOOPS;
    ref.loops_declared = false;
    ref.loops_grow = true;
    ref.cold = false;
    ref.ref_startup_x100 = 0; /* this is the start-up */
    ref.rerun = true;
    measure_bench(&trust_reference, &ref, ctx, &m);
    if (!m.failed) {
        trust.add_known = m.value_x100 > 0;
        trust.add_ticks_x100 = m.value_x100;
        trust.ref_loops = m.loops;
    }
    bool tcg = cpu_is_qemu_tcg(cpu);
    bool hypervisor = cpu_has(cpu, FEAT_HYPERVISOR) || cpu->hv_vendor[0];
    bool plausible = trust.add_known && trust.add_ticks_x100 >= PLAUSIBLE_MIN_X100 &&
                     trust.add_ticks_x100 <= PLAUSIBLE_MAX_X100;
    long long per1000 = trust.add_ticks_x100 * 10; /* ticks for 1000 ADDs */
    trust.cycles_exact = cpu_fact(cpu, CPU_TSC_CORE_CLOCK) && timer.mode != READ_PIT;

    trust.checked = true;
    trust.short_why = tcg ? "emulator" : !trust.add_known ? "no reference"
                    : !plausible ? (hypervisor ? "hypervisor" : "implausible reference") : NULL;
    if (tcg) {
        ksnprintf(trust.why, sizeof trust.why,
                  "QEMU TCG emulates this CPU: its clocks follow host time, not the emulated work "
                  "(1000 dependent ADDs: %lld ticks)", per1000);
    } else if (!trust.add_known) {
        ksnprintf(trust.why, sizeof trust.why, "the reference ADD chain could not be measured");
    } else if (!plausible) {
        ksnprintf(trust.why, sizeof trust.why,
                  "1000 dependent ADDs cost %lld ticks (about 1000 expected)%s", per1000,
                  hypervisor ? ": the hypervisor emulates or traps this code" : "");
    } else if (hypervisor) {
        trust.trusted = true;
        ksnprintf(trust.why, sizeof trust.why,
                  "plausible (1000 dependent ADDs: %lld ticks), but a hypervisor (%s) may disturb samples",
                  per1000, cpu->hv_vendor[0] ? cpu->hv_vendor : "unnamed");
    } else {
        trust.trusted = true;
        ksnprintf(trust.why, sizeof trust.why, "1000 dependent ADDs cost %lld ticks", per1000);
    }
}

bool trust_cycles_x100(int64_t ticks_x100, int64_t *cycles_x100)
{
    if (trust.cycles_exact) {
        *cycles_x100 = ticks_x100;
        return true;
    }
    if (!trust.add_known)
        return false;
    int64_t num = ticks_x100 * 100;
    *cycles_x100 = (num + (num >= 0 ? 1 : -1) * trust.add_ticks_x100 / 2) / trust.add_ticks_x100;
    return true;
}
