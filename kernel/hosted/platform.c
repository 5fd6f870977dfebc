/* The hosted platform: what run_suite() needs, provided by Linux in ring 3.
 * No PIT (no port I/O), no MSRs, no CLI: the TSC is calibrated against the
 * kernel's raw monotonic clock, and memory for mem/ benchmarks is mmapped. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "hosted.h"
#include "lib/fmt.h"
#include "options/settings.h"
#include "platform/platform.h"
#include "record/log.h"
#include "run/suite.h"
#include "sample_perf.h"

static uint8_t *big_base;
static uint64_t big_size;
static bool big_tried;

/* MemAvailable from /proc/meminfo (proc(5)), in MiB; 0 when unknown. */
static uint32_t mem_available_mib(void)
{
    char buf[4096];
    int fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    const char *p = strstr(buf, "MemAvailable:");
    if (!p)
        return 0;
    uint64_t kib = 0;
    for (p += 13; *p == ' '; p++)
        ;
    for (; *p >= '0' && *p <= '9'; p++)
        kib = kib * 10 + (uint64_t)(*p - '0');
    return (uint32_t)(kib >> 10);
}

/* The last-level data or unified cache, from CPUID (the same identification
 * the run does later: this runs before it, for the platform record). */
static uint64_t llc_bytes_early(void)
{
    static struct cpu_info c;
    cpu_probe_with(&c, hosted_platform.cpu_ops);
    uint64_t best = 0;
    unsigned level = 0;
    for (unsigned i = 0; i < c.ncaches; i++) {
        const struct cache_desc *d = &c.caches[i];
        if ((d->kind == CACHE_DATA || d->kind == CACHE_UNIFIED) &&
            (d->level > level || (d->level == level && d->size > best))) {
            best = d->size;
            level = d->level;
        }
    }
    return best;
}

#ifdef __x86_64__
#define CHASE_LLC "mem64/chase/4xLLC"
#else
#define CHASE_LLC "mem/chase/4xLLC"
#endif

/* MiB to map: hostmem=N as given; auto: the floor, or 4 x LLC (and a 2 MiB
 * margin for the chain's alignment) when the 4xLLC chase is selected, at most
 * 3/4 of MemAvailable and HOSTMEM_MAX_MIB. *why says what held it below
 * 4 x LLC, if anything did. */
static uint32_t big_memory_mib(uint64_t llc, const char **why)
{
    static char reason[160];
    uint64_t need = llc ? ((4 * llc) >> 20) + 2 : 0;
    *why = NULL;
    if (settings.hostmem != HOSTMEM_AUTO) {
        if (need && settings.hostmem < need) {
            ksnprintf(reason, sizeof reason, "hostmem=%u asks for no more; hostmem=%u maps enough",
                      (unsigned)settings.hostmem, (unsigned)need);
            *why = reason;
        }
        return settings.hostmem;
    }
    if (settings.list || settings.help || !suite_selects(CHASE_LLC) || need <= HOSTMEM_FLOOR_MIB)
        return HOSTMEM_FLOOR_MIB;
    uint32_t avail = mem_available_mib(), cap = HOSTMEM_MAX_MIB;
    if (avail && avail / 4 * 3 < cap)
        cap = avail / 4 * 3;
    if (need <= cap)
        return (uint32_t)need;
    if (cap < HOSTMEM_MAX_MIB)
        ksnprintf(reason, sizeof reason, "hostmem=auto takes at most 3/4 of the %u MiB the host has available",
                  (unsigned)avail);
    else
        ksnprintf(reason, sizeof reason, "this runner maps at most hostmem=%u", HOSTMEM_MAX_MIB);
    *why = reason;
    return cap > HOSTMEM_FLOOR_MIB ? cap : HOSTMEM_FLOOR_MIB;
}

static void map_big_memory(void)
{
    if (big_tried)
        return;
    big_tried = true;
    uint64_t llc = llc_bytes_early();
    const char *why;
    uint32_t mib = big_memory_mib(llc, &why);
    if (!mib)
        return;
    size_t size = (size_t)mib << 20;
    /* 2 MiB more than asked, so a 2 MiB-aligned block of `size` fits inside,
     * advised MADV_HUGEPAGE (madvise(2)): with transparent huge pages in
     * "madvise" or "always" mode the chain's pages are 2 MiB and large
     * chases do not measure 4 KiB TLB misses on top of the cache (uarch-bench
     * does the same). Only advice: hosted_page_size() reads back what Linux
     * gave (smaps), and the records say it. */
    const size_t huge = (size_t)2 << 20;
    void *m = mmap(NULL, size + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED && settings.hostmem == HOSTMEM_AUTO && mib > HOSTMEM_FLOOR_MIB) {
        log_note("info", "memory", "could not map %u MiB for 4 x the last-level cache; mapping %u MiB",
                 (unsigned)mib, HOSTMEM_FLOOR_MIB);
        why = "mmap refused more";
        mib = HOSTMEM_FLOOR_MIB;
        size = (size_t)mib << 20;
        m = mmap(NULL, size + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (m == MAP_FAILED) {
        log_note("warn", "memory", "could not map %u MiB for mem/ benchmarks; they get none", (unsigned)mib);
        return;
    }
    if (why)
        log_note("info", "memory",
                 "4 x the last-level cache is %u MiB, more than the %u MiB mapped (%s): " CHASE_LLC
                 " covers %u MiB, not DRAM alone",
                 (unsigned)((4 * llc) >> 20), (unsigned)mib, why, (unsigned)mib);
    void *p = (void *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
    (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    /* Written, not only read: every page backed by its own frame (not the
     * shared zero page) before anything is timed. */
    for (size_t off = 0; off < size; off += 4096)
        ((volatile uint8_t *)p)[off] = 1;
    big_base = p;
    big_size = size;
}

static void describe(struct platform_info *info)
{
    static struct utsname u;
    struct platform_hosted_info *h = &info->hosted;
    info->kind = "hosted";
    h->have_uname = uname(&u) == 0;
    hosted_cpus_list(h); /* before pinning: the CPUs the whole process may use */
    hosted_pin_to_current_cpu();
    h->os = h->have_uname ? u.sysname : "unknown";
    h->release = h->have_uname ? u.release : "unknown";
    h->version = h->have_uname ? u.version : "unknown";
    h->machine = h->have_uname ? u.machine : "unknown";
    h->pinned_cpu = hosted_pinned_cpu();
    /* What a mem/ benchmark will get: mapped and touched when the first one
     * asks (big_memory), not here, so a run without one (list, help, a
     * snippet) does not fault in 256 MiB: half a second of every such run. */
    const char *why;
    h->big_memory_bytes = (uint64_t)big_memory_mib(llc_bytes_early(), &why) << 20;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A TSC read with the clock read on both sides: the clock time is taken as
 * the middle of the two, so the bracket's width bounds the error. */
static void paired_read(uint64_t *tsc, uint64_t *ns)
{
    uint64_t a = now_ns();
    *tsc = cpu_rdtsc_native();
    uint64_t b = now_ns();
    *ns = a + (b - a) / 2;
}

/* 50 ms per try: the bracket of two clock reads is well under a microsecond,
 * so the rate is good to a few parts per million; every hosted run pays it. */
#define CALIBRATION_NS 50000000ull

static uint64_t one_calibration(void)
{
    uint64_t tsc0, ns0, tsc1, ns1;
    paired_read(&tsc0, &ns0);
    if (!ns0)
        return 0;
    while (now_ns() - ns0 < CALIBRATION_NS)
        ;
    paired_read(&tsc1, &ns1);
    if (ns1 <= ns0 || tsc1 <= tsc0)
        return 0;
    /* (ticks * 1e9) fits 64 bits up to 18 s at 1 GHz: far beyond 50 ms. */
    return ((tsc1 - tsc0) * 1000000000ull + (ns1 - ns0) / 2) / (ns1 - ns0);
}

static bool calibrate_tsc(uint64_t *hz, const char **source, bool brief)
{
    (void)brief; /* 3 x 50 ms of clock_gettime: cheap even under qemu-i386 */
    uint64_t r[3];
    for (int i = 0; i < 3; i++) {
        r[i] = one_calibration();
        if (!r[i])
            return false;
    }
    /* The median of three. */
    uint64_t lo = r[0] < r[1] ? r[0] : r[1], hi = r[0] < r[1] ? r[1] : r[0];
    *hz = r[2] < lo ? lo : r[2] > hi ? hi : r[2];
    *source = "clock_gettime(CLOCK_MONOTONIC_RAW), median of 3 x 50 ms";
    return true;
}

static void big_memory(uint8_t **base, uint64_t *size)
{
    map_big_memory();
    *base = big_base;
    *size = big_size;
}

/* The data selectors Linux gave the process (GS holds glibc's thread
 * pointer on i386), taken before anything runs. */
static uint16_t start_ds, start_es, start_fs, start_gs;

void hosted_save_segments(void)
{
    __asm__ volatile("movw %%ds, %0\n movw %%es, %1\n movw %%fs, %2\n movw %%gs, %3"
                     : "=m"(start_ds), "=m"(start_es), "=m"(start_fs), "=m"(start_gs));
}

/* A benchmark that faulted may have left anything a ring-3 body can change:
 * the data segment registers, EFLAGS.DF/AC/TF (POPF changes them at CPL 3,
 * SDM Vol. 2B POPF), the x87 state and MXCSR. Ring 3 cannot touch CR0 or
 * SS's descriptor; Linux keeps CR0.TS/AM its own way. */
static void after_fault(void)
{
    if (start_ds)
        __asm__ volatile("movw %0, %%ds\n movw %1, %%es\n movw %2, %%fs\n movw %3, %%gs"
                         : : "m"(start_ds), "m"(start_es), "m"(start_fs), "m"(start_gs) : "memory");
#ifdef __x86_64__ /* the 64-bit hosted runner (its DS is 0 on x86-64 Linux: not reloaded) */
    __asm__ volatile("pushfq\n andq $~0x40500, (%%rsp)\n popfq" ::: "memory", "cc");
#else
    __asm__ volatile("pushfl\n andl $~0x40500, (%%esp)\n popfl" ::: "memory", "cc");
#endif
    __asm__ volatile("fninit" ::: "memory");
    if (cpu_has(cpu, FEAT_SSE)) {
        uint32_t mxcsr = 0x1f80; /* all masked, round to nearest (SDM Vol. 1 §10.2.3) */
        __asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
    }
}

/* struct platform's state_check: what after_fault puts back, as ring 3 sees it. */
static const char *state_check(void)
{
    uint16_t ds, es, fs, gs;
    __asm__ volatile("movw %%ds, %0\n movw %%es, %1\n movw %%fs, %2\n movw %%gs, %3"
                     : "=m"(ds), "=m"(es), "=m"(fs), "=m"(gs));
    if (ds != start_ds || es != start_es || fs != start_fs || gs != start_gs)
        return "a segment register differs from the process's";
    uintptr_t flags;
#ifdef __x86_64__
    __asm__ volatile("pushfq\n popq %0" : "=r"(flags));
#else
    __asm__ volatile("pushfl\n popl %0" : "=r"(flags));
#endif
    if (flags & 0x40500)
        return "EFLAGS.TF, DF or AC set";
    uint16_t cw, sw;
    __asm__ volatile("fnstcw %0\n fnstsw %1" : "=m"(cw), "=m"(sw));
    if ((cw & 0x1f3f) != 0x033f)
        return "x87 control word not 0x037F";
    if (sw & 0xbf)
        return "x87 exception pending";
    if (cpu_has(cpu, FEAT_SSE)) {
        uint32_t mxcsr;
        __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
        if (mxcsr != 0x1f80)
            return "MXCSR not 0x1F80";
    }
    return NULL;
}

/* XGETBV (SDM Vol. 2C): ECX selects the XCR; #UD unless CR4.OSXSAVE is
 * set, so the cpu room calls it only where CPUID.1:ECX.OSXSAVE says so.
 * Post-P5: kept out of the checked core. */
__attribute__((section(".text.needs"), noinline)) static uint64_t xgetbv(uint32_t xcr)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
    return ((uint64_t)hi << 32) | lo;
}

/* Identification in ring 3 needs no privilege: the EFLAGS.AC/ID toggle
 * test works unchanged, the x87 test needs no CR0 access because Linux has
 * the FPU enabled, and CPUID is unprivileged (barring CPUID faulting, which
 * Linux does not enable for ordinary processes). */
static const struct cpu_probe_ops hosted_cpu_ops = {
    .eflags_toggles = cpu_eflags_toggles,
    .fpu_present = cpu_x87_answers,
    .cpuid = cpu_cpuid_native,
    .rdtsc = cpu_rdtsc_native,
    .xgetbv = xgetbv,
};

struct platform hosted_platform = {
    .name = "hosted",
    .cmdline = "",
    .ring0 = false,
    .out = hosted_out,
    .msr = &hosted_msr,
    .pmu_bind = hosted_perf_bind,
    .context_switches = hosted_context_switches,
    .cpu_ops = &hosted_cpu_ops,
    .describe = describe,
    .after_cpu_probe = NULL,
    .faults = ring3_faults,
    .msr_selftest = ring3_msr_selftest,
    .timer = { calibrate_tsc, NULL },
    .big_memory = big_memory,
    .page_size = hosted_page_size,
    .after_fault = after_fault,
    .state_check = state_check,
    .bench_faults = ring3_bench_faults,
    .boot_modules = hosted_boot_modules,
    .code_memory = hosted_code_memory,
    .read_byte = hosted_read_byte,
    .input_name = "stdin",
    .watchdog = hosted_watchdog,
    .sampler = &hosted_sampler,
    .smp_start = hosted_smp_start,
    .smp_call = hosted_smp_call,
    .smp_wait = hosted_smp_wait,
};
