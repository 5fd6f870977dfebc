/* The run's topology phase (topology_phase.c). */
#ifndef CK_RUN_TOPOLOGY_PHASE_H
#define CK_RUN_TOPOLOGY_PHASE_H
#include "platform/platform.h"

/* The topology record, then the start-up of the other processors. */
void topology_phase(const struct platform *here, const struct platform_info *info);

#endif
