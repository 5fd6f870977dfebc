/* Declaring a measurement between processors (the smp/ group, issue 12).
 * A file in bench/ holds records like
 *
 *     BENCH_SMP("smp/c2c/rmw", "a cache line bounced with LOCK XADD between every pair",
 *               .run = smp_run_c2c_rmw, .min_cpus = 2, .needs = { FEAT_TSC });
 *
 * and that is all: the record lands in the ck_smp_benches section, and the
 * run's "between cores" phase (kernel/run/between_cores.c) finds it, checks
 * it against bench= and what it needs, and calls .run after the suite (the
 * TSC is calibrated and the trust check has spoken by then). Unlike BENCH
 * there is no body: what runs on which processor, and how it is timed, is
 * C code in kernel/smp/, and .run both measures and hands the result to its
 * writer in kernel/report/cores/. The measurements it may name are declared
 * at the end of this header. */
#ifndef CK_BENCH_SMP_H
#define CK_BENCH_SMP_H
#include <stdbool.h>
#include <stdint.h>

#define BENCH_SMP_NEEDS_MAX 4

struct platform;
struct smp_info;

/* What .run gets: the platform (its smp_call/smp_wait mailboxes), the
 * processors the start-up phase left running, the TSC's calibrated rate
 * (0: unknown) and the trust check's verdict (for the record's `trusted`). */
struct smp_bench_run {
    const char *name;               /* the declared name (notes and records say it) */
    const struct platform *p;
    const struct smp_info *smp;
    uint64_t hz;
    bool trusted;
};

struct smp_bench {
    const char *name;               /* "smp/topic[/case]": selected by bench= globs */
    const char *desc;
    void (*run)(const struct smp_bench_run *r);
    unsigned min_cpus;              /* running processors it needs (at least 2) */
    int needs[BENCH_SMP_NEEDS_MAX]; /* enum cpu_feature; FEAT_NONE (0) ends the list */
};

#define BENCH_SMP_SECTION __attribute__((section("ck_smp_benches"), used, aligned(sizeof(void *))))

#define BENCH_SMP(name_, desc_, ...) CK_BENCH_SMP_(__COUNTER__, name_, desc_, __VA_ARGS__)
#define CK_BENCH_SMP_(id, ...) CK_BENCH_SMP__(id, __VA_ARGS__)
#define CK_BENCH_SMP__(id, name_, desc_, ...) \
    static const struct smp_bench ck_smp_bench_##id BENCH_SMP_SECTION = { .name = name_, .desc = desc_, __VA_ARGS__ }

/* The registry: every record of the ck_smp_benches section, in link order
 * (weak: a program without smp/ declarations, the unit tests or the 64-bit
 * hosted runner, has no such section). */
extern const struct smp_bench __start_ck_smp_benches[] __attribute__((weak));
extern const struct smp_bench __stop_ck_smp_benches[] __attribute__((weak));

static inline const struct smp_bench *smp_bench_begin(void) { return __start_ck_smp_benches; }
static inline const struct smp_bench *smp_bench_end(void) { return __stop_ck_smp_benches; }
static inline unsigned smp_bench_count(void)
{
    return (unsigned)(__stop_ck_smp_benches - __start_ck_smp_benches);
}

/* The measurements kernel/smp/ offers a declaration (kernel/run/smp_runs.c): each
 * measures with the running processors and writes its record. */
void smp_run_c2c_rmw(const struct smp_bench_run *r);   /* "c2c", variant rmw */
void smp_run_c2c_store(const struct smp_bench_run *r); /* "c2c", variant store */
void smp_run_tsc(const struct smp_bench_run *r);       /* "tsc_sync" */
void smp_run_sibling(const struct smp_bench_run *r);   /* "sibling", or its skip */
void smp_run_loaded_chase(const struct smp_bench_run *r); /* "smp_loaded" */

#endif
