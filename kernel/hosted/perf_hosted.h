/* The hosted runner's Linux counter driver, between its two files:
 * perf_events.c (the driver: open, read, stop) and perf_soft_proof.c (the
 * software events' proof and which events may be counted). */
#ifndef CK_PERF_HOSTED_H
#define CK_PERF_HOSTED_H
#include <stdbool.h>
#include <stdint.h>
#include "pmu/pmu_linux.h"
#include "pmu/pmu_prove.h"

/* Where Linux lists its hardware PMU (absent: none, e.g. a VM without a virtual PMU). */
#define PERF_CPU_SOURCE "/sys/bus/event_source/devices/cpu"

/* Opens the event for the calling thread: the file descriptor, or -errno
 * with perf_refusal() saying why in Linux's words. */
int perf_open(const struct pmu_linux_attr *a, const struct cpu_info *c, const char *name);
const char *perf_refusal(void);
/* The last perf_open of a software event was refused in every ring and
 * opened for ring 3 only (perf_event_paranoid 2 without CAP_PERFMON). */
bool perf_opened_ring3_only(void);
/* Sets what perf_refusal() says (a refusal that is not perf_event_open's). */
void perf_refuse(const char *why);
/* A small integer from a /proc or /sys file; fallback when unreadable. */
int perf_read_int_file(const char *path, int fallback);
/* What the machine says beside an errno (paranoid level, a cpu PMU, ...). */
void perf_linux_context(const struct cpu_info *c, struct pmu_linux_context *out);
/* One read(2) of a counting event; false when it gave no count. */
bool perf_read_fd(int fd, uint64_t *v);

/* What pmu_prove()'s loop found for the hardware events (why: NULL when
 * they count), for perf_unusable. */
void perf_hardware_proved(bool counting, const char *why);
/* Proves the software events, adding a probe each to *v; true when one counts. */
bool perf_prove_software(struct pmu_driver *d, struct pmu_verdict *v);
/* struct pmu_driver_ops.unusable: NULL, or why ev is not counted here. */
const char *perf_unusable(const struct pmu_driver *d, const struct pmu_eventsel *ev);

#endif
