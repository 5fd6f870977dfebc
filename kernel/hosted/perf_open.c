/* Opening and reading one Linux perf event for the calling thread
 * (perf_event_open(2), called through syscall(2): the C library has no
 * wrapper), and what Linux said when it refused. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_hosted.h"

_Static_assert(PMU_LINUX_HARDWARE == PERF_TYPE_HARDWARE && PMU_LINUX_SOFTWARE == PERF_TYPE_SOFTWARE &&
               PMU_LINUX_RAW == PERF_TYPE_RAW, "perf_type_id");
_Static_assert(PMU_LINUX_HW_INSTRUCTIONS == PERF_COUNT_HW_INSTRUCTIONS &&
               PMU_LINUX_HW_REF_CPU_CYCLES == PERF_COUNT_HW_REF_CPU_CYCLES &&
               PMU_LINUX_SW_PAGE_FAULTS == PERF_COUNT_SW_PAGE_FAULTS &&
               PMU_LINUX_SW_CONTEXT_SWITCHES == PERF_COUNT_SW_CONTEXT_SWITCHES &&
               PMU_LINUX_SW_CPU_MIGRATIONS == PERF_COUNT_SW_CPU_MIGRATIONS &&
               PMU_LINUX_SW_TASK_CLOCK == PERF_COUNT_SW_TASK_CLOCK &&
               PMU_LINUX_SW_CPU_CLOCK == PERF_COUNT_SW_CPU_CLOCK, "perf ids");
_Static_assert(PMU_LINUX_ENOENT == ENOENT && PMU_LINUX_EACCES == EACCES && PMU_LINUX_ENOSYS == ENOSYS &&
               PMU_LINUX_EOPNOTSUPP == EOPNOTSUPP && PMU_LINUX_EPERM == EPERM && PMU_LINUX_EINVAL == EINVAL &&
               PMU_LINUX_ENODEV == ENODEV && PMU_LINUX_EBUSY == EBUSY && PMU_LINUX_EMFILE == EMFILE,
               "errno values");

static char last_refusal[240];
static bool ring3_only; /* the last event opened was asked again for ring 3 only */

/* A small integer from a /proc or /sys file; fallback when unreadable. */
int perf_read_int_file(const char *path, int fallback)
{
    FILE *f = fopen(path, "r");
    int v = fallback;
    if (!f)
        return fallback;
    if (fscanf(f, "%d", &v) != 1)
        v = fallback;
    fclose(f);
    return v;
}

void perf_linux_context(const struct cpu_info *c, struct pmu_linux_context *out)
{
    out->paranoid = perf_read_int_file("/proc/sys/kernel/perf_event_paranoid", -99);
    out->cpu_pmu = access(PERF_CPU_SOURCE, F_OK) == 0;
    out->hypervisor = c && cpu_has(c, FEAT_HYPERVISOR);
    out->privileged = geteuid() == 0;
}

static long open_attr(const struct pmu_linux_attr *a)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = a->type;
    attr.config = a->config;
    attr.exclude_kernel = a->exclude_kernel;
    attr.exclude_user = a->exclude_user;
    attr.exclude_hv = 1;
    attr.pinned = a->pinned;
    return syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int perf_open(const struct pmu_linux_attr *a, const struct cpu_info *c, const char *name)
{
    long fd = open_attr(a);
    int err = errno;
    ring3_only = false;
    /* perf_event_paranoid 2 lets an unprivileged process count only ring 3:
     * a software event asked for in every ring is asked again for ring 3
     * (the proof then shows what that still counts: page faults, but no
     * context switch, which Linux records in the kernel). */
    if (fd < 0 && (err == EACCES || err == EPERM) && a->type == PMU_LINUX_SOFTWARE && !a->exclude_kernel &&
        !a->exclude_user) {
        struct pmu_linux_attr user = *a;
        user.exclude_kernel = true;
        fd = open_attr(&user);
        ring3_only = fd >= 0;
        if (fd >= 0)
            return (int)fd;
    }
    if (fd >= 0)
        return (int)fd;
    struct pmu_linux_context lc;
    perf_linux_context(c, &lc);
    pmu_linux_refusal(last_refusal, sizeof last_refusal, a, name, err, &lc);
    return -err;
}

bool perf_opened_ring3_only(void)
{
    return ring3_only;
}

const char *perf_refusal(void)
{
    return last_refusal;
}

void perf_refuse(const char *why)
{
    snprintf(last_refusal, sizeof last_refusal, "%s", why);
}

bool perf_read_fd(int fd, uint64_t *v)
{
    uint64_t value = 0;
    /* A pinned event that lost its counter reads 0 bytes (perf_event_open(2)). */
    if (read(fd, &value, sizeof value) != (ssize_t)sizeof value)
        return false;
    *v = value;
    return true;
}
