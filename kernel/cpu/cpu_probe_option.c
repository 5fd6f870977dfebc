/* cpu_probe() on the machine itself, through the platform's cpu_ops.
 *
 * No emulator can hide CPUID (QEMU's "486" has it), so the option cpuprobe
 * lets a boot take the 486 or 386 path on purpose: the EFLAGS test then
 * answers as that CPU would, and the run must still complete. */
#include "cpu.h"
#include "options/settings.h"
#include "platform/platform.h"
#include "record/log.h"

static bool pretended_toggles(uint32_t mask)
{
    if (settings.cpuprobe == PROBE_AS_386 && (mask & EFLAGS_AC))
        return false;
    if (settings.cpuprobe != PROBE_AUTO && (mask & EFLAGS_ID))
        return false;
    return platform->cpu_ops->eflags_toggles(mask);
}

static const struct cpu_probe_ops pretended_ops = {
    .eflags_toggles = pretended_toggles,
    .fpu_present = NULL, /* filled from the platform's below */
    .cpuid = NULL,
};

void cpu_probe(void)
{
    if (settings.cpuprobe == PROBE_AUTO) {
        cpu_probe_platform(platform->cpu_ops);
        return;
    }
    struct cpu_probe_ops ops = pretended_ops;
    ops.fpu_present = platform->cpu_ops->fpu_present;
    ops.cpuid = platform->cpu_ops->cpuid;
    log_note("warn", "cpu", "cpuprobe=%s: identifying as if CPUID did not exist",
                settings.cpuprobe == PROBE_AS_386 ? "386" : "486");
    cpu_probe_platform(&ops);
}

static struct cpu_xstate xstate_read;
const struct cpu_xstate *const cpu_xstate = &xstate_read;

/* After the platform's setup (kernel/run): XCR0 as this run uses it. */
void cpu_xstate_probe(void)
{
    cpu_xstate_read(cpu, platform->cpu_ops, &xstate_read);
}
