/* The measurements between processors (between_cores.c). */
#ifndef CK_RUN_BETWEEN_CORES_H
#define CK_RUN_BETWEEN_CORES_H
#include "platform/platform.h"

void between_cores(const struct platform *p);
/* Whether bench= names an smp/ measurement by its prefix (a word of the list
 * beginning "smp/"), as against the everything of the default "*". */
bool between_cores_named(void);

#endif
