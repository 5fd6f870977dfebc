/* The hosted runner: cyclekit as a Linux user-space program (ring 3).
 * The portable harness and the bench/ files are the same as in the kernel;
 * only the platform underneath (this directory) differs. */
#ifndef CK_HOSTED_H
#define CK_HOSTED_H
#include "platform/platform.h"

/* hostmem=: MiB mapped for mem/ benchmarks. auto (the default): at least
 * HOSTMEM_FLOOR_MIB, and enough for 4 x the last-level cache when a 4xLLC
 * chase is selected, as far as the host's available memory allows
 * (platform.c says in a note when it does not). The most a process can map:
 * 64 GiB in the 64-bit runner; 3 GiB in the 32-bit one (4 GiB of address
 * space, less its own). */
#define HOSTMEM_AUTO 0xffffffffu
#define HOSTMEM_FLOOR_MIB 256u
#ifdef __x86_64__
#define HOSTMEM_MAX_MIB 65536u
#else
#define HOSTMEM_MAX_MIB 3072u
#endif

/* The platform record run_suite() gets; main() fills in the command line. */
extern struct platform hosted_platform;

/* The parts of struct platform (out.c, msr.c). */
void hosted_out(enum out_channel channel, const char *text, size_t len);
extern const struct msr_ops hosted_msr;

/* Installs the fault signal handlers on an alternate stack (idempotent). */
void hosted_guard_init(void);
/* A new thread's part of that: its own alternate signal stack (stack,
 * size bytes; NULL: none) and SIGALRM blocked (the watchdog is the main
 * thread's). */
void hosted_guard_thread(void *stack, size_t size);
/* Notes the segment selectors after_fault puts back (main, first thing). */
void hosted_save_segments(void);

/* Fills call64 and long_mode_why (long64.c): a direct call in the 64-bit
 * runner, NULL with the reason in the 32-bit one. */
void hosted_long_mode(struct platform *p);

/* The ring-3 self-test cases (struct platform's faults and msr_selftest). */
extern const struct provoked_fault ring3_faults[];
void ring3_msr_selftest(struct selftest_check *c);
/* bench_faults.c: the vectors raised inside a benchmark body in ring 3. */
extern const struct bench_fault ring3_bench_faults[];

/* modules.c: benchmark files (module=), code memory, stdin for serve. */
unsigned hosted_boot_modules(const struct platform_module **list);
void hosted_code_memory(uint8_t **base, size_t *size);
int hosted_read_byte(void);
/* watchdog.c: SIGALRM abandons a loaded body that runs past ms. */
const char *hosted_watchdog(uint32_t ms);
/* pages.c: the page size of the mapping at base (size bytes), from
 * /proc/self/smaps; 0 with *why when unknown or mixed (struct platform's
 * page_size). */
uint64_t hosted_page_size(const void *base, uint64_t size, const char **why);

/* cpus.c: the CPUs the process may run on and their APIC IDs (describe),
 * the CPU with an APIC ID (-1: none) and back (false: none). A thread's own
 * APIC ID and core type: cpu_identify_self (cpu/topology/apic_id.h). */
void hosted_cpus_list(struct platform_hosted_info *h);
int hosted_cpu_of(uint32_t apic_id);
bool hosted_apic_of(int linux_cpu, uint32_t *apic_id);
/* Pins the main thread to the CPU it runs on (describe does, once); the
 * CPU it is pinned to (-1: not pinned). */
void hosted_pin_to_current_cpu(void);
int hosted_pinned_cpu(void);
/* perf_events.c: struct platform's pmu_bind (Linux perf events as a
 * PMU_LINUX driver); switches.c: its context_switches. */
struct pmu_driver;
struct cpu_info;
bool hosted_perf_bind(struct pmu_driver *d, const struct cpu_info *c, const char **why);
bool hosted_context_switches(uint64_t *count);
/* smp.c: struct platform's smp_start, smp_call and smp_wait. */
void hosted_smp_start(const struct smp_request *req, struct smp_info *out);
bool hosted_smp_call(unsigned slot, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg);
int hosted_smp_wait(unsigned slot, uint32_t ms, uintptr_t *result);

#endif
