/* The CPU state the benchmarks run in, set once after identification:
 * interrupts quiet, RDTSC allowed, the FPU initialised. */
#include "cpu/cpu.h"
#include "cpu_setup.h"
#include "interrupts.h"
#include "io.h"
#include "report/log.h"
#include "platform/bare/traps/safe.h"

#define CR0_MP (1u << 1)
#define CR0_EM (1u << 2)
#define CR0_TS (1u << 3)
#define CR0_NE (1u << 5)
#define CR4_TSD (1u << 2)
#define CR4_OSFXSR (1u << 9)     /* the OS saves SSE state: SSE instructions allowed */
#define CR4_OSXMMEXCPT (1u << 10) /* SSE exceptions as #XM, not #UD */

void fpu_reset(void)
{
    if (!cpu->has_fpu)
        return;
    __asm__ volatile("clts; fninit");
}

void bare_cpu_setup(char *said, size_t size)
{
    interrupts_quiesce(said, size);
    uint32_t cr4;
    if (read_cr4_safe(&cr4) == 0) {
        uint32_t want = cr4 & ~CR4_TSD; /* RDTSC at any privilege (it is ring 0 anyway) */
        if (cpu_has(cpu, FEAT_FXSR) && cpu_has(cpu, FEAT_SSE))
            want |= CR4_OSFXSR | CR4_OSXMMEXCPT; /* else SSE benchmarks fault with #UD */
        if (want != cr4)
            write_cr4_safe(want);
    }
    if (cpu->has_fpu) {
        /* Native FPU errors (NE), WAIT honours TS (MP), no emulation (EM). */
        write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
        fpu_reset();
    }
}
