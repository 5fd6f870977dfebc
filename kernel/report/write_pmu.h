/* The "pmu" record: which driver, its counters, the proof verdict and its
 * evidence, and whether the PMU MSRs read back their saved values. */
#ifndef CK_WRITE_PMU_H
#define CK_WRITE_PMU_H
#include "pmu/pmu_prove.h"

/* why: the sentence from pmu_select() (may be NULL). Writes one readable
 * summary line (two when not counting) and one JSON record:
 * {"type":"pmu","driver":..,"kind":..,"why":..,"gp_counters":..,"gp_width":..,
 *  "fixed_counters":..,"fixed_width":..,"rdpmc":..,"events":..,
 *  "verdict":"counting"|"not counting","reason":..,"fault":"0x..","fault_msr":"0x..",
 *  "fixed_counting":..,"instructions":N,"branches":N,
 *  "evidence":[{"check":..,"event":..,"counter":..,"code":..,"umask":..,"before":..,"after":..,
 *               "delta":..,"min":..,"max":..,"ok":..,"status":..}],
 *  "restore":{"status":..,"checked":..,"mismatches":..,"inexact":..,"moving":..,"faults":..}} */
void write_pmu(const struct pmu_driver *d, const char *why, const struct pmu_verdict *v);

#endif
