/* The report room's writers: each turns a plain struct into its readable
 * line(s) (OUT_HUMAN) and its JSON record (OUT_MACHINE) through the log
 * (log.h). Nothing outside kernel/report/ formats; the writers decide
 * nothing. Adding a field means its struct and one writer here. */
#ifndef CK_WRITE_H
#define CK_WRITE_H
#include <stdbool.h>
#include "cpu/cpu.h"
#include "cpu/microcode.h"
#include "cpu/msrscan.h"
#include "clock/aperf.h"
#include "harness/bench.h"
#include "harness/measure.h"
#include "harness/result.h"
#include "harness/timer.h"
#include "harness/trust.h"
#include "platform/fault.h"
#include "platform/platform.h"
#include "pmu/counters.h"
#include "pmu/pmu_prove.h"
#include "load/loaded.h"

/* The run (write_run.c) */
void write_banner(const struct platform *p);
void write_platform(const struct platform_info *info);     /* the "platform" record */
void write_platform_said(const char *line);                /* what after_cpu_probe did */
void write_acpi_text(const struct platform_acpi_info *a);   /* the platform lines' ACPI part */
void write_acpi_fields(const struct platform_acpi_info *a); /* acpi_oem_id and acpi in the record */
struct topology_map;
void write_topology(const struct topology_map *m);         /* the "topology" record */
void write_smp(const struct smp_info *s);                  /* the "smp" record: start-up */
struct c2c_matrix;
void write_c2c(const struct c2c_matrix *m, bool trusted);  /* the "c2c" record: core-to-core latency */
struct tsc_sync;
void write_tsc_sync(const struct tsc_sync *t, bool trusted); /* the "tsc_sync" record */
struct sibling_result;
void write_sibling(const struct sibling_result *r, bool trusted); /* "sibling", or its skip */
struct loaded_result;
void write_loaded_chase(const struct loaded_result *r, bool trusted); /* "smp_loaded", or its skip */
void write_run_complete(int status);
struct sample_result;
struct cycles_result;
/* The "sample" and "cycles" records of a sampled benchmark (write_sample.c). */
void write_sample(const char *name, unsigned mode, const struct sample_result *r);
void write_cycles(const char *name, unsigned mode, const struct cycles_result *c);
void write_help(void);                                     /* option help: every option */

/* Identification (write_cpu.c): the CPU section and the "cpu" record, with
 * the microcode revision: "microcode":N, or null with "microcode_reason"
 * (and "microcode_fault":"0x..", "microcode_fault_msr":"0x8b" when the MSR
 * access failed). mc may be NULL (not read: null, "not read"). */
/* xs: the XSAVE state (XCR0) after the setup; NULL when not read. */
void write_cpu(const struct cpu_info *c, const struct cpu_microcode *mc,
               const struct cpu_xstate *xs);
/* The same record under one readable line (list and help: nothing is measured). */
void write_cpu_brief(const struct cpu_info *c, const struct cpu_microcode *mc,
                     const struct cpu_xstate *xs);

/* The MSR sweep, option msrscan (write_msrscan.c): a heading, a readable line
 * before each range is read (progress), then the section and one record:
 * {"type":"msrscan","status":"scanned"|"skipped"|"refused","reason":..,
 *  "refusal":"0x..","refused_msr":"0x..",          (refused only)
 *  "read":N,"present":N,"faults":N,"fault_vectors":["#GP"],
 *  "ranges":[{"first":"0x0","last":"0x1fff","read":N,"present":N,"zero":N,"faults":N,
 *             "runs":[["0x10","0x11"],...],"runs_more":N,
 *             "values":{"0x10":"0x..",...},"values_more":N}]}   (scanned only)
 * runs: consecutive MSRs read without a fault; values: those that read non-zero. */
void write_msrscan_heading(void);
void write_msrscan_progress(const struct msrscan_range *r);
void write_msrscan(const struct msrscan *s);

/* Faults and the self-test (write_fault.c, write_selftest.c) */
void write_fault(const char *where, const struct fault_info *info);
void write_selftest_start(bool ring0);
void write_selftest(const char *name, const char *expected, const char *seen, bool ok);
void write_selftest_bench(const struct bench_fault_seen *s);

/* Counters (write_pmu.c). write_pmu: why is the sentence from pmu_select()
 * (may be NULL). One readable summary line (two when not counting) and one
 * JSON record:
 * {"type":"pmu","driver":..,"kind":..,"why":..,"gp_counters":..,"gp_width":..,
 *  "fixed_counters":..,"fixed_width":..,"rdpmc":..,"events":..,
 *  "verdict":"counting"|"not counting","reason":..,"fault":"0x..","fault_msr":"0x..",
 *  "fixed_counting":..,"instructions":N,"branches":N,"rounds":N,"reads":"rdmsr",
 *  "evidence":[{"check":..,"event":..,"counter":..,"code":..,"umask":..,"before":..,"after":..,
 *               "once":..,"twice":..,"delta":..,"min":..,"max":..,"ok":..,"status":..}],
 * instructions/branches: what the proof loop retires each time over; once/twice:
 * its least count run once and twice over; delta = twice - once, judged
 * against min..max; before/after: the raw reads around the last run.
 *  "restore":{"status":..,"checked":..,"mismatches":..,"inexact":..,"moving":..,"faults":..}} */
void write_pmu_heading(bool used);
void write_pmu(const struct pmu_driver *d, const char *why, const struct pmu_verdict *v);
void write_pmu_restore(const struct counters_restore *r);   /* the "pmu_restore" record */

/* Timing (write_timer.c) */
void write_timer(const struct timer_info *t);
void write_trust(const struct trust *t);
void write_clock(const struct aperf_state *a);

/* The platform record's SMBIOS part (write_smbios.c): lines, and the fields
 * inside the open platform record. */
void write_smbios_text(const struct platform_smbios *sm);
void write_smbios_fields(const struct platform_smbios *sm);

/* Benchmark files, loaded at boot or in a session (write_module.c). */
void write_module(const struct module_verdict *v);

/* The serial session (write_serve.c, kernel/serve/). */
struct serve_info {
    unsigned protocol;
    const char *input;
    unsigned line_max, frame_max, watchdog_ms;
};
void write_serve_ready(const struct serve_info *s);
void write_serve_done(const char *request, int status);
void write_serve_error(const char *request, const char *reason);
void write_serve_end(const char *why);

/* Benchmarks (write_bench.c, write_result.c) */
void write_bench_list_heading(unsigned count);
/* A declared smp/ measurement in the list: a "bench" record with "smp":true
 * and "min_cpus" (unmet: why it cannot run here, or NULL). */
void write_smp_bench_entry(const struct smp_bench *b, const char *unmet);
void write_bench_entry(const struct bench *b, const char *unmet);   /* unmet: NULL or why not here */
void write_results_heading(const struct plan *pl);
void write_result(const struct result *r);
/* Its "per_instruction" object, when the body is N copies of one instruction (write_per_insn.c). */
void write_per_instruction(const struct result *r);
void write_skip(const char *name, const char *reason);
void write_sweep(const struct event_sweep *s);

/* Progress and the end (write_progress.c): before each benchmark
 * {"type":"progress","i":I,"n":N,"name":"lat/add","group":"lat","elapsed_ms":E,"eta_ms":T}
 * (i from 1; elapsed_ms since the first benchmark began, null without a
 * clock; eta_ms the mean time of the benchmarks so far times those left,
 * null before the first has finished) and the screen's progress line;
 * write_summary: the screen's summary page (no record: the end record and
 * the records before it say it all). */
struct run_progress {
    unsigned i, n;
    const char *name;
    bool have_elapsed, have_eta;
    uint64_t elapsed_ms, eta_ms;
    const char *elapsed_by;     /* "tsc" (milliseconds), "rtc" (whole seconds), NULL: no clock */
};
void write_step(const char *name);
void write_progress(const struct run_progress *p);
void write_progress_end(bool have_elapsed, uint64_t elapsed_ms); /* the suite's time, for the summary */
void write_summary(int status);

#endif
