/* Proof before trust: a driver's counters are used only after they were
 * seen counting known code. pmu_prove() programs instructions (and cycles,
 * branches, the fixed counters when the driver has them) and proves each
 * counter by difference, the way the harness times a body: it counts a loop
 * run once and run twice over, between the same reads of every counter, so
 * that what reading costs (the calls, the other counters' reads, in any
 * order, with RDMSR or RDPMC alike) is the same in both and cancels; the
 * difference must be the loop's own instructions and branches. The verdict
 * carries the evidence, and the driver's MSRs are restored (and checked)
 * afterwards. */
#ifndef CK_PMU_PROVE_H
#define CK_PMU_PROVE_H
#include "pmu.h"

/* run(arg, times) runs a known loop `times` times over. Between run(arg, 1)
 * and run(arg, 2) only the loop's length may differ: the call and its
 * set-up retire the same instructions in both. */
typedef void (*pmu_workload_fn)(void *arg, unsigned times);
struct pmu_workload {
    pmu_workload_fn run;
    void *arg;
    uint64_t instructions; /* what run(arg, 2) retires beyond run(arg, 1) (exact, by construction) */
    uint64_t branches;     /* branches among them (0: no branch check) */
};

enum pmu_reason {
    PMU_REASON_OK,
    PMU_REASON_NO_DRIVER,      /* pmu_select() found no driver */
    PMU_REASON_NO_PROOF_EVENT, /* the driver has no instructions event to prove with */
    PMU_REASON_SAVE_FAULT,     /* reading a PMU MSR faulted (#GP: the MSR does not exist here) */
    PMU_REASON_PROGRAM_FAULT,  /* writing a control MSR failed */
    PMU_REASON_READ_FAULT,     /* reading a counter failed */
    PMU_REASON_READS_ZERO,     /* every counter reads 0 before and after the last run (QEMU TCG) */
    PMU_REASON_NO_MOVE,        /* a counter did not move at all, at either length */
    PMU_REASON_OUT_OF_WINDOW,  /* a counter moved by an implausible amount */
    PMU_REASON_REFUSED,        /* the operating system refused the event (struct pmu_driver.refused) */
};

/* The probes of a driver's own proof (prove_more, pmu.h), after the slots
 * pmu_prove() programs: Linux's software events, each proved by what
 * provokes it a known number of times. */
enum { PMU_PROOF_SW_TASK_CLOCK = PMU_PROOF_SLOTS, PMU_PROOF_SW_CONTEXT_SWITCHES, PMU_PROOF_SW_PAGE_FAULTS,
       PMU_PROOF_SW_CPU_MIGRATIONS, PMU_PROOF_ALL };

/* The acceptance windows of the difference (twice over minus once). The
 * reads cancel, so instructions are [N, N + N/16] and branches [B, B + B/16]
 * (the sixteenth: an event that also counts something per iteration, as
 * on a core whose count is not exact). Cycles: more than N/8 (no core
 * retires 8 per clock) and less than 256 N + 2^24 (an SMI, not a wild
 * value). Each count is the least of PMU_PROVE_ROUNDS runs (an interrupt
 * or an SMI only adds). */
#define PMU_PROVE_ROUNDS 3u
#define PMU_PROVE_TOLERANCE_SHIFT 4u
#define PMU_PROVE_MAX_IPC 8u
#define PMU_PROVE_MAX_CPI 256u
#define PMU_PROVE_CYCLE_SLACK (1u << 24)
void pmu_prove_window(int slot, uint64_t instructions, uint64_t branches, uint64_t *min, uint64_t *max);

struct pmu_probe {
    int slot;            /* PMU_PROOF_* */
    const char *event;   /* table name, NULL for a raw code */
    unsigned counter;
    uint16_t code;
    uint8_t umask, flags;
    int status;          /* first failure programming or reading this counter */
    uint32_t fault_msr;  /* the MSR of that failure */
    uint64_t before, after; /* the raw reads around the last run (twice over) */
    uint64_t once, twice;   /* the least count of the loop run once, and twice over */
    uint64_t delta;         /* twice - once (0 when twice < once) */
    uint64_t expect_min, expect_max;
    bool ok;
};

#define PMU_PROVE_MAX PMU_PROOF_ALL
struct pmu_verdict {
    bool counting;        /* the general counters count: use them */
    bool fixed_counting;  /* the fixed counters count too (false when there are none) */
    bool software_counting; /* a driver's own proof (prove_more) found some of its events counting */
    const char *software_reason; /* why the first of those events failed its proof (NULL: none failed) */
    enum pmu_reason reason;
    int fault;            /* the failure behind SAVE/PROGRAM/READ_FAULT */
    uint32_t fault_msr;
    uint64_t instructions, branches; /* what the workload declared */
    unsigned rounds;      /* runs of each length (PMU_PROVE_ROUNDS) */
    const char *reads;    /* how the counters were read: "rdmsr", "read(2)" ... */
    unsigned nprobes;
    struct pmu_probe probes[PMU_PROVE_MAX];
    int restore_status;   /* pmu_restore() result (PMU_ERR_NOT_SAVED when nothing was saved) */
    unsigned restore_bad; /* pmu_verify_restore() result */
    struct pmu_restore_check restore;
};

/* Returns v->counting. d may be a PMU_NONE driver (verdict: no driver). */
bool pmu_prove(struct pmu_driver *d, const struct pmu_workload *w, struct pmu_verdict *v);
/* "ok", "no driver", "#GP on save" ... (static strings). */
const char *pmu_reason_text(enum pmu_reason r);
/* "instructions", "cycles", "branches", "fixed instructions" ... */
const char *pmu_proof_slot_name(int slot);

#endif
