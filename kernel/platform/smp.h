/* Starting the other processors (issue 12): what the run asks the platform
 * for and what it reports back, in a shape both platforms share (the
 * hosted runner has no hook: its processors are Linux's). */
#ifndef CK_PLATFORM_SMP_H
#define CK_PLATFORM_SMP_H
#include <stdbool.h>
#include <stdint.h>

#define SMP_MAX_CPUS 64
#define SMP_NO_FAULT 0xffffffffu

/* smpfaultkind=: how the smpfault= processor faults (ud2, or a stack overflow: a double fault). */
enum { SMP_FAULT_UD = 0, SMP_FAULT_OVERFLOW = 1 };

enum { SMP_DONE = 0, SMP_BUSY = 1, SMP_LOST = 2 }; /* smp_wait's answers */

enum smp_state {
    SMP_BSP,            /* the boot processor: runs the suite */
    SMP_STARTED,        /* answered and waits in its mailbox */
    SMP_NO_ANSWER,      /* did not check in within the bound: skipped */
    SMP_FAULTED,        /* its own guard caught a fault: abandoned */
    SMP_NOT_SELECTED,   /* left out by cpus= */
};

struct smp_cpu {
    uint32_t apic_id;           /* from the MADT */
    enum smp_state state;
    uint32_t answer_us;         /* start to check-in, PIT-measured (started) */
    uint32_t reported_apic_id;  /* what the processor's own CPUID says */
    unsigned core_type;         /* its CPUID 0x1A EAX[31:24] (0: not hybrid) */
    unsigned fault_vector;      /* SMP_FAULTED: the exception */
    uint32_t fault_eip, fault_error;
    const char *why;            /* SMP_NO_ANSWER: why, where the platform knows (NULL: the bound passed) */
    unsigned mode;              /* started or faulted: 64 (long mode, as the boot processor) or 32 */
    const char *why_32;         /* mode 32 under a long-mode boot processor: why (else NULL) */
};

struct smp_request {
    const uint32_t *apic_ids;   /* every processor to start (the boot one is skipped) */
    unsigned n;
    uint32_t fault_apic_id;     /* smpfault=: this one faults before checking in */
    unsigned fault_kind;        /* SMP_FAULT_UD or SMP_FAULT_OVERFLOW (smpfaultkind=) */
    uint32_t answer_ms;         /* how long to wait for each */
};

struct smp_info {
    const char *method;         /* "xAPIC MMIO at 0xfee00000", "x2APIC MSRs" */
    const char *why_not;        /* NULL when processors were started */
    uint32_t bsp_apic_id;
    uint32_t trampoline;        /* physical address of the start-up page (0: none, hosted) */
    const char *pinned;         /* the hosted runner: how its main thread is pinned (NULL: bare) */
    unsigned n;
    struct smp_cpu cpus[SMP_MAX_CPUS];
};

#endif
