/* The bare platform's smp_start hook (struct platform, platform/smp.h). */
#ifndef CK_BARE_SMP_BARE_H
#define CK_BARE_SMP_BARE_H
#include "platform/smp.h"

void bare_smp_start(const struct smp_request *req, struct smp_info *out);

#endif
