/* How far the suite has come and how long the rest will take: the clock
 * and the estimate behind each "progress" record (report/write.h). */
#ifndef CK_RUN_PROGRESS_H
#define CK_RUN_PROGRESS_H
#include "platform/platform.h"

/* Before the first benchmark: n benchmarks will run. */
void progress_start(const struct platform *p, unsigned n);
/* Before each: writes its progress record and screen line. */
void progress_next(const char *name);
/* After the last: the suite's time, for the summary page. */
void progress_end(void);

#endif
