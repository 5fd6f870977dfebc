/* The counting bed the harness's unit tests share: an Intel family 6 CPU
 * with architectural perfmon version 4 (4 general and 3 fixed counters, 48
 * bits), the simulated MSR file shaped to match, a driver bound to it. */
#ifndef CK_TEST_SIM_ARCH_H
#define CK_TEST_SIM_ARCH_H
#include "msr_sim.h"
#include "pmu/pmu.h"

/* Fills s and binds d to it (the CPU lives as long as the program).
 * Returns pmu_save()'s result: 0 when the driver saved every MSR. */
int sim_bind_arch_v4(struct msr_sim *s, struct pmu_driver *d);

#endif
