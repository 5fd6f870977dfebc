/* Proof before trust: a driver's counters are used only after they were
 * seen counting known code. pmu_prove() programs instructions (and cycles,
 * branches, the fixed counters when the driver has them), runs a workload
 * whose instruction and branch counts are known by construction, and checks
 * that every counter moved by a plausible amount. The verdict carries the
 * evidence, and the driver's MSRs are restored (and checked) afterwards. */
#ifndef CK_PMU_PROVE_H
#define CK_PMU_PROVE_H
#include "pmu.h"

typedef void (*pmu_workload_fn)(void *arg);
struct pmu_workload {
    pmu_workload_fn run;
    void *arg;
    uint64_t instructions; /* retired by one call to run (exact, by construction) */
    uint64_t branches;     /* branches among them (0: no branch check) */
};

enum pmu_reason {
    PMU_REASON_OK,
    PMU_REASON_NO_DRIVER,      /* pmu_select() found no driver */
    PMU_REASON_NO_PROOF_EVENT, /* the driver has no instructions event to prove with */
    PMU_REASON_SAVE_FAULT,     /* reading a PMU MSR faulted (#GP: the MSR does not exist here) */
    PMU_REASON_PROGRAM_FAULT,  /* writing a control MSR failed */
    PMU_REASON_READ_FAULT,     /* reading a counter failed */
    PMU_REASON_READS_ZERO,     /* every counter reads 0 before and after (QEMU TCG) */
    PMU_REASON_NO_MOVE,        /* a counter did not move */
    PMU_REASON_OUT_OF_WINDOW,  /* a counter moved by an implausible amount */
};

/* The acceptance windows. Instructions: the workload's count plus the
 * instructions between the counter reads (calls, MSR reads of the other
 * counters): [N, N + 512 + N/16]. Branches alike: [B, B + 64 + B/16].
 * Cycles: more than N/8 (no core retires 8 per clock) and less than
 * 256 N + 2^24 (an SMI or a slow MSR access, not a wild value). */
#define PMU_PROVE_INSN_SLACK 512u
#define PMU_PROVE_BRANCH_SLACK 64u
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
    uint64_t before, after, delta;
    uint64_t expect_min, expect_max;
    bool ok;
};

#define PMU_PROVE_MAX PMU_PROOF_SLOTS
struct pmu_verdict {
    bool counting;        /* the general counters count: use them */
    bool fixed_counting;  /* the fixed counters count too (false when there are none) */
    enum pmu_reason reason;
    int fault;            /* the failure behind SAVE/PROGRAM/READ_FAULT */
    uint32_t fault_msr;
    uint64_t instructions, branches; /* what the workload declared */
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
