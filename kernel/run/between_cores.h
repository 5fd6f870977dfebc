/* The measurements between processors (between_cores.c). */
#ifndef CK_RUN_BETWEEN_CORES_H
#define CK_RUN_BETWEEN_CORES_H
#include "platform/platform.h"

void between_cores(const struct platform *p);

#endif
