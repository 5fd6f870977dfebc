/* The MSR sweep (option msrscan): which MSRs of three index ranges can be
 * read without a fault, found through an msr_ops (platform->msr: fault-safe
 * RDMSR on bare metal, refused in ring 3; a simulated file in the unit
 * tests). Only reads: the sweep never issues a write.
 *
 * The result is kept compact for the log: per range the counts, the runs of
 * consecutive MSRs that read without a fault, and the values that are not
 * zero; both lists are capped and say how many more there were. (QEMU's TCG
 * reads unknown MSRs as 0 without a fault, so there every index "exists".) */
#ifndef CK_MSRSCAN_H
#define CK_MSRSCAN_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "platform/msr.h"

#define MSRSCAN_RANGES 3
#define MSRSCAN_RUNS_MAX 128    /* listed runs per range */
#define MSRSCAN_VALUES_MAX 128  /* listed non-zero values per range */

enum msrscan_status {
    MSRSCAN_SCANNED,  /* every range was read */
    MSRSCAN_SKIPPED,  /* the CPU has no RDMSR: nothing was read (reason) */
    MSRSCAN_REFUSED,  /* the platform refused a read (not ring 0): the scan stopped */
};

struct msrscan_run { uint32_t first, last; };
struct msrscan_value { uint32_t msr; uint64_t value; };

struct msrscan_range {
    uint32_t first, last;       /* inclusive */
    uint32_t read;              /* RDMSRs issued */
    uint32_t present;           /* read without a fault */
    uint32_t faults;            /* read with a fault */
    uint32_t zero;              /* present and read as 0 */
    unsigned nruns;
    uint32_t runs_more;         /* runs beyond MSRSCAN_RUNS_MAX, not listed */
    struct msrscan_run runs[MSRSCAN_RUNS_MAX];
    unsigned nvalues;
    uint32_t values_more;       /* non-zero values beyond MSRSCAN_VALUES_MAX */
    struct msrscan_value values[MSRSCAN_VALUES_MAX];
};

struct msrscan {
    enum msrscan_status status;
    const char *reason;         /* skipped or refused: why (else NULL) */
    int refusal;                /* refused: the code the platform returned */
    uint32_t refused_msr;
    uint32_t fault_vectors;     /* bit v set: a fault with vector v (< 32) was seen */
    unsigned nranges;
    struct msrscan_range range[MSRSCAN_RANGES];
};

/* Why this CPU cannot be scanned (no CPUID, CPUID.1:EDX.MSR clear), or NULL. */
const char *msrscan_unavailable(const struct cpu_info *c);

/* Empties *s and sets the three ranges (0x0-0x1FFF, 0xC0000000-0xC0001FFF,
 * 0xC0010000-0xC0011FFF). unavailable: msrscan_unavailable()'s answer; when
 * not NULL the scan is MSRSCAN_SKIPPED with that reason. */
void msrscan_init(struct msrscan *s, const char *unavailable);

/* Reads every MSR of range i (reads only). Returns false when the scan must
 * stop: it was skipped, or the platform refused a read (MSRSCAN_REFUSED). */
bool msrscan_range(const struct msr_ops *ops, struct msrscan *s, unsigned i);

/* msrscan_init and every range in order. */
void msrscan_all(const struct msr_ops *ops, const char *unavailable, struct msrscan *s);

/* Totals over the ranges. */
uint32_t msrscan_total_read(const struct msrscan *s);
uint32_t msrscan_total_present(const struct msrscan *s);
uint32_t msrscan_total_faults(const struct msrscan *s);

const char *msrscan_status_name(enum msrscan_status st);  /* "scanned" ... */

#endif
