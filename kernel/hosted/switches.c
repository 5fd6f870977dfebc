/* struct platform's context_switches: how often the scheduler took the
 * calling thread off its CPU so far. getrusage(RUSAGE_THREAD) (Linux since
 * 2.6.26, getrusage(2)): ru_nvcsw (it gave the CPU up: a sleep, a page
 * from disk) plus ru_nivcsw (it was preempted), one system call without a
 * file descriptor, so every thread of the runner reads its own. */
#include <sys/resource.h>

#include "hosted.h"

bool hosted_context_switches(uint64_t *count)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return false;
    *count = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
    return true;
}
