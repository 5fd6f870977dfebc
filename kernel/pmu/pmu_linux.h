/* The pure half of the Linux counter driver (PMU_LINUX): its event names,
 * what perf_event_open(2) is asked for each request, and the sentence a
 * refusal becomes. The system calls are the hosted runner's
 * (kernel/hosted/perf_events.c); everything here is plain arithmetic, so
 * the unit tests check it on the host.
 *
 * Numbers from Linux's UAPI header include/uapi/linux/perf_event.h (enum
 * perf_type_id, perf_hw_id, perf_sw_ids; the x86 raw format of
 * /sys/bus/event_source/devices/cpu/format) and the errno values of
 * include/uapi/asm-generic/errno-base.h and errno.h (the same on i386 and
 * x86-64); the hosted driver checks them against the C library's at
 * compile time. */
#ifndef CK_PMU_LINUX_H
#define CK_PMU_LINUX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu.h"

/* perf_type_id */
#define PMU_LINUX_HARDWARE 0u
#define PMU_LINUX_SOFTWARE 1u
#define PMU_LINUX_RAW 4u

/* perf_hw_id */
#define PMU_LINUX_HW_CPU_CYCLES 0u
#define PMU_LINUX_HW_INSTRUCTIONS 1u
#define PMU_LINUX_HW_CACHE_REFERENCES 2u
#define PMU_LINUX_HW_CACHE_MISSES 3u
#define PMU_LINUX_HW_BRANCH_INSTRUCTIONS 4u
#define PMU_LINUX_HW_BRANCH_MISSES 5u
#define PMU_LINUX_HW_BUS_CYCLES 6u
#define PMU_LINUX_HW_REF_CPU_CYCLES 9u

/* perf_sw_ids. The two clocks count nanoseconds, not events: a sampling
 * period on them (sample=cpu-clock:100000) is a time, every 100 µs. */
#define PMU_LINUX_SW_CPU_CLOCK 0u
#define PMU_LINUX_SW_TASK_CLOCK 1u
#define PMU_LINUX_SW_PAGE_FAULTS 2u
#define PMU_LINUX_SW_CONTEXT_SWITCHES 3u
#define PMU_LINUX_SW_CPU_MIGRATIONS 4u

/* errno values the refusal names */
#define PMU_LINUX_EPERM 1
#define PMU_LINUX_ENOENT 2
#define PMU_LINUX_EACCES 13
#define PMU_LINUX_EBUSY 16
#define PMU_LINUX_ENODEV 19
#define PMU_LINUX_EINVAL 22
#define PMU_LINUX_EMFILE 24
#define PMU_LINUX_ENOSYS 38
#define PMU_LINUX_EOPNOTSUPP 95

/* What perf_event_open is asked for one request. */
struct pmu_linux_attr {
    uint32_t type;
    uint64_t config;
    bool exclude_user, exclude_kernel;
    bool pinned;               /* hardware: on a counter all the time, or in error (never multiplexed) */
};

/* The attribute for ev: a table name (struct pmu_eventsel.name) is Linux's
 * generic event; a raw code is PERF_TYPE_RAW in the x86 layout (event
 * select 7:0, unit mask 15:8, edge 18, invert 23, counter mask 31:24, as
 * IA32_PERFEVTSELx; AMD's event select bits 11:8 at 35:32). The rings: ":u"
 * ring 3 only, ":k" the kernel only; neither (or both) means the body's
 * ring for hardware and raw events (ring 3: a read's system call is not
 * the body's work, and perf_event_paranoid 2 allows nothing else), and
 * everything for software events (a context switch happens in the kernel:
 * Linux does not count it for a ring-3-only event). False for a table
 * name whose code or unit mask were changed by a suffix. */
bool pmu_linux_attr_of(const struct pmu_eventsel *ev, struct pmu_linux_attr *out);

/* "PERF_TYPE_HARDWARE", "PERF_TYPE_SOFTWARE", "PERF_TYPE_RAW". */
const char *pmu_linux_type_name(uint32_t type);
/* "ENOENT" ... or NULL for a value this file does not name. */
const char *pmu_linux_errno_name(int err);

/* What the machine says beside an errno, for the refusal's reason. */
struct pmu_linux_context {
    int paranoid;              /* /proc/sys/kernel/perf_event_paranoid, -99 unknown */
    bool cpu_pmu;              /* /sys/bus/event_source/devices/cpu exists (Linux has a hardware PMU driver) */
    bool hypervisor;           /* CPUID.1:ECX[31] */
    bool privileged;           /* CAP_PERFMON or CAP_SYS_ADMIN (root) */
};

/* "perf_event_open(PERF_TYPE_HARDWARE instructions): ENOENT: no hardware
 * PMU in this VM (Linux registered no cpu event source)" into buf. */
void pmu_linux_refusal(char *buf, size_t size, const struct pmu_linux_attr *a, const char *event,
                       int err, const struct pmu_linux_context *ctx);

#endif
