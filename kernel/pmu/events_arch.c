/* Intel architectural performance events: the same code on every CPU that
 * reports architectural perfmon, each with its "not available" bit in
 * CPUID.0AH:EBX.
 *
 * Sources: Intel SDM vol. 3B §18.2.1.2 and Table 19-1 "Architectural
 * Performance Events" (bits 0-6: 3CH/00 core cycles, C0H/00 instructions,
 * 3CH/01 reference cycles, 2EH/4F LLC references, 2EH/41 LLC misses, C4H/00
 * branches, C5H/00 mispredicted branches); SDM vol. 2 CPUID leaf 0AH (EBX
 * bit vector, EAX[31:24] its length); bits 7-12 as used by Linux KVM
 * selftests (tools/testing/selftests/kvm/include/x86/pmu.h: A4H/01 topdown
 * slots, A4H/02 backend bound, 73H/00 bad speculation, 9CH/01 frontend
 * bound, C2H/02 retiring, E4H/01 LBR inserts). Fixed counters: SDM Table
 * 19-2 and [BG] (309H instructions retired, 30AH unhalted core cycles,
 * 30BH unhalted reference cycles); 30CH topdown slots (version 5). */
#include "pmu.h"

#define EV(code, umask, bit, nm, ds) { nm, code, umask, 0, 0, bit, ds }

const struct pmu_event pmu_events_arch[] = {
    EV(0x3C, 0x00, 0, "CPU_CLK_UNHALTED.THREAD_P", "core cycles while not halted"),
    EV(0xC0, 0x00, 1, "INST_RETIRED.ANY_P", "instructions retired"),
    EV(0x3C, 0x01, 2, "CPU_CLK_UNHALTED.REF_P", "reference cycles while not halted (bus clocks on Core 2)"),
    EV(0x2E, 0x4F, 3, "LONGEST_LAT_CACHE.REFERENCE", "last-level cache references"),
    EV(0x2E, 0x41, 4, "LONGEST_LAT_CACHE.MISS", "last-level cache misses"),
    EV(0xC4, 0x00, 5, "BR_INST_RETIRED.ALL_BRANCHES", "branch instructions retired"),
    EV(0xC5, 0x00, 6, "BR_MISP_RETIRED.ALL_BRANCHES", "mispredicted branches retired"),
    EV(0xA4, 0x01, 7, "TOPDOWN.SLOTS_P", "issue slots available (topdown)"),
    EV(0xA4, 0x02, 8, "TOPDOWN.BACKEND_BOUND_SLOTS", "issue slots lost to the back end"),
    EV(0x73, 0x00, 9, "TOPDOWN.BAD_SPEC_SLOTS", "issue slots lost to bad speculation"),
    EV(0x9C, 0x01, 10, "TOPDOWN.FRONTEND_BOUND_SLOTS", "issue slots lost to the front end"),
    EV(0xC2, 0x02, 11, "TOPDOWN.RETIRING_SLOTS", "issue slots that retired"),
    EV(0xE4, 0x01, 12, "LBR_INSERTS", "last-branch-record inserts"),
};

const unsigned pmu_events_arch_count = sizeof pmu_events_arch / sizeof pmu_events_arch[0];

/* What fixed counter i counts. The code/umask are those of the equivalent
 * general-purpose event, so a request for that event can be served by the
 * fixed counter (reference cycles: fixed 2 counts at the TSC rate, unlike
 * 3CH/01; Linux KVM calls it a pseudo event 00H/03). */
const struct pmu_event pmu_events_arch_fixed[PMU_MAX_FIXED] = {
    EV(0xC0, 0x00, 1, "INST_RETIRED.ANY", "instructions retired (fixed counter 0)"),
    EV(0x3C, 0x00, 0, "CPU_CLK_UNHALTED.THREAD", "core cycles while not halted (fixed counter 1)"),
    EV(0x00, 0x03, 2, "CPU_CLK_UNHALTED.REF_TSC", "reference cycles at the TSC rate (fixed counter 2)"),
    EV(0x00, 0x04, 7, "TOPDOWN.SLOTS", "issue slots (fixed counter 3, version 5)"),
};
