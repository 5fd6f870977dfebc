/* TSC synchronisation: each running processor's TSC against the boot
 * processor's, by a handshake whose round trip bounds the error. The boot
 * processor reads its TSC (t0), signals; the other reads its own (t) and
 * answers; the boot processor reads t1. Then t - (t0 + t1) / 2 is the
 * offset, within +-(t1 - t0) / 2: the other's read happened somewhere
 * between t0 and t1. Of TSC_ROUNDS handshakes the narrowest is kept. Two
 * such measurements TSC_APART_MS apart give the verdict: `synchronised`
 * (both offsets within their uncertainty of 0), `drifting` (the offset
 * changed by more than both uncertainties), else `offset`. TSC_ADJUST (MSR
 * 0x3B, SDM Vol. 3A §17.17.3) is read where CPUID.7.0:EBX[1] says it
 * exists: firmware or an OS may have set it to align the TSCs. */
#ifndef CK_SMP_TSC_SYNC_H
#define CK_SMP_TSC_SYNC_H
#include <stdbool.h>
#include <stdint.h>
#include "platform/platform.h"

#define TSC_MAX 64
#define TSC_ROUNDS 32
#define TSC_APART_MS 100

enum tsc_verdict { TSC_SYNCHRONISED, TSC_OFFSET, TSC_DRIFTING, TSC_UNMEASURED };

struct tsc_cpu {
    uint32_t apic_id;
    bool boot;                  /* the reference itself */
    bool measured;              /* both measurements completed */
    int64_t offset[2];          /* ticks, its TSC minus the boot processor's */
    uint64_t uncertainty[2];    /* +- ticks */
    bool have_adjust;
    int64_t adjust;             /* IA32_TSC_ADJUST */
    enum tsc_verdict verdict;
};

struct tsc_sync {
    unsigned n;
    struct tsc_cpu cpus[TSC_MAX];
    enum tsc_verdict verdict;   /* the worst of them */
    bool adjust_exists;         /* CPUID.7.0:EBX[1] */
};

void tsc_sync_measure(const struct platform *p, const struct smp_info *s, uint64_t hz, struct tsc_sync *out);
const char *tsc_verdict_name(enum tsc_verdict v);

#endif
