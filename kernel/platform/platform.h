/* The one seam between the portable run and the machine it runs on: each
 * platform (kernel/bare: ring 0 on a PC; kernel/hosted:
 * Linux ring 3) fills one struct platform completely. What a platform
 * cannot do it says with NULL (no hook) or false, never by leaving a
 * namesake out. */
#ifndef CK_PLATFORM_H
#define CK_PLATFORM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "platform/guard.h"
#include "platform/msr.h"
#include "platform/out.h"
#include "platform/screen.h"
#include "platform/platform_smbios.h"
#include "platform/sampler.h"
#include "platform/selftest.h"
#include "platform/smp.h"
#include "platform/timer_source.h"

/* Named here, defined by the rooms that use them (the contract includes
 * nothing above it): CPU identification's probe (cpu/cpu.h). */
struct cpu_probe_ops;
/* ... and the performance counters (pmu/pmu.h, cpu/cpu.h). */
struct pmu_driver;
struct cpu_info;

/* What the platform knows about the machine, for the "platform" record and
 * the readable lines under the banner. The two platforms describe different
 * things (a boot loader's handoff; an operating system), so the record has
 * one shape per platform, named by `kind`. */
struct platform_mem_range {
    uint64_t base, length;
    uint32_t type;
};

/* ACPI as the bare platform found it (ACPI spec 6.5 §5.2). */
#define PLATFORM_ACPI_TABLES 32
#define PLATFORM_APIC_CPUS 64
struct platform_apic_cpu {        /* one MADT processor entry */
    uint32_t apic_id;
    bool enabled, online_capable, x2apic;
};
struct platform_acpi_info {
    const char *oem_id;           /* NULL: no usable ACPI */
    const char *where;            /* "multiboot2 tag 15", "BIOS area 0xf5a40" */
    unsigned revision;            /* the RSDP's */
    bool xsdt;                    /* root table: XSDT, else RSDT */
    unsigned ntables;
    char sigs[PLATFORM_ACPI_TABLES][5];
    bool madt;                    /* a valid MADT was found */
    unsigned ncpus;
    struct platform_apic_cpu cpus[PLATFORM_APIC_CPUS];
};

struct platform_bare_info {
    const char *console;          /* "serial 0x3f8 at 115200 baud 8N1, screen: VGA text" */
    bool efi;
    const char *handoff;          /* "multiboot2", "multiboot" or NULL */
    const char *loader;
    uint64_t usable_bytes;
    unsigned nmmap;
    const struct platform_mem_range *mmap;
    bool fb_present;
    uint64_t fb_addr;
    uint32_t fb_width, fb_height, fb_bpp, fb_type;
    const char *exit;             /* how the run ends */
    /* Long mode (kernel/bare/long): 64 or 32, why, and the page
     * size mapping the mem/ region ("4k", "2m", "1g"; NULL in 32-bit mode). */
    unsigned mode;
    const char *mode_reason;
    const char *pages;
    const char *map_pages;        /* the map's page size above its first GiB ("1g", "2m") */
    uint64_t mapped_bytes;        /* identity-mapped from 0 (0 in 32-bit mode) */
    const struct platform_smbios *smbios; /* the firmware's SMBIOS tables (never NULL on bare) */
    struct platform_acpi_info acpi;
};

/* A CPU the hosted runner may run on (sched_getaffinity at start-up), with
 * the APIC ID a thread pinned there read from its own CPUID. */
#define PLATFORM_HOSTED_CPUS 64
struct platform_hosted_cpu {
    int cpu;                      /* Linux's CPU number */
    uint32_t apic_id;             /* valid when why is NULL */
    const char *why;              /* NULL: measured; else why not (then it is left out) */
};

struct platform_hosted_info {
    bool have_uname;
    const char *os, *release, *version, *machine;
    int pinned_cpu;               /* -1: not pinned */
    uint64_t big_memory_bytes;
    unsigned ncpus;               /* the CPUs sched_getaffinity allowed */
    struct platform_hosted_cpu cpus[PLATFORM_HOSTED_CPUS];
};

struct platform_info {
    const char *kind;             /* "bare" or "hosted" */
    struct platform_bare_info bare;
    struct platform_hosted_info hosted;
};

/* A benchmark file handed over at boot (kernel/load/): a GRUB module2 line
 * on bare metal, module=PATH on the hosted runner. */
struct platform_module {
    const uint8_t *data;
    size_t len;
    const char *origin;           /* "grub module 1 (/boot/x.ckb)", "module=x.ckb" */
};

struct platform {
    const char *name;             /* "bare" or "hosted": in the begin record */
    const char *cmdline;          /* the options as given */
    bool ring0;                   /* privileged benchmarks can run */
    /* Where text leaves the program: serial and screen, stdout, a test buffer. */
    void (*out)(enum out_channel channel, const char *text, size_t len);
    /* MSR access: RDMSR/WRMSR through the exception table, or refused. */
    const struct msr_ops *msr;
    /* Counters the operating system lends (the hosted runner: Linux's
     * perf_event_open(2), kernel/hosted/perf_events.c): binds *d to them
     * (*why: a sentence); false: none. NULL: the CPU's own counters through
     * msr (bare metal). The driver is proved like any other. */
    bool (*pmu_bind)(struct pmu_driver *d, const struct cpu_info *c, const char **why);
    /* The calling thread's context switches so far (the hosted runner:
     * getrusage(RUSAGE_THREAD), voluntary and involuntary), read between
     * samples so that a sample the scheduler interrupted is counted as
     * disturbed; false when it cannot be read. NULL where nothing switches
     * the harness out (bare metal). */
    bool (*context_switches)(uint64_t *count);
    /* What CPU identification executes: the EFLAGS tests, the x87 test, CPUID. */
    const struct cpu_probe_ops *cpu_ops;
    /* Gathers what the platform knows about the machine (may map memory). */
    void (*describe)(struct platform_info *info);
    /* After CPU identification: e.g. quiet the local APIC and set CR0/CR4.
     * Says what it did in one readable line (empty: nothing to say). */
    void (*after_cpu_probe)(char *said, size_t size);
    /* The self-test's platform part: faults provoked the platform's own way
     * (ring 0 and ring 3 differ) and the check of its MSR access path. */
    const struct provoked_fault *faults; /* ends with an entry whose name is NULL */
    void (*msr_selftest)(struct selftest_check *check);
    struct timer_platform timer;  /* calibration and the PIT fallback */
    /* A coarse clock in whole seconds of the day (the bare CMOS RTC), for
     * the run's elapsed time where there is no TSC (a 486): false when
     * there is none. May be NULL. */
    bool (*wall_seconds)(uint32_t *seconds);
    /* Memory for the mem/ benchmarks beyond the 64 KiB scratch (may be NULL). */
    void (*big_memory)(uint8_t **base, uint64_t *size);
    /* The page size the memory at addr (len bytes: the large memory, the
     * scratch page) is mapped with, in bytes, for the mem/ records; 0 with
     * *why when it has no pages (paging off), or they are unknown or mixed.
     * A platform that maps with 2 MiB or 1 GiB pages says so here. May be
     * NULL. */
    uint64_t (*page_size)(const void *addr, uint64_t len, const char **why);
    /* After a fault (the guard caught it): put back the machine state the
     * harness relies on, whatever the faulting code changed: the flat segment
     * registers, EFLAGS.DF/AC/TF clear, the x87 reset (control word, no
     * pending exception), MXCSR 0x1F80 where SSE is on, CR0.TS clear and
     * CR0.AM as set up (bare: all of it; hosted: what ring 3 can). */
    void (*after_fault)(void);
    /* The self-test's check of that state: NULL when it is as after_fault
     * leaves it, else what differs (a short phrase). May be NULL. */
    const char *(*state_check)(void);
    /* The vectors the self-test raises inside a benchmark body (run through
     * the suite's guarded measurement); ends with an entry whose name is NULL.
     * May be NULL. */
    const struct bench_fault *bench_faults;
    /* 64-bit code (issue: the whole modern core). call64 runs the 64-bit
     * function at fn with arg (both addresses below 4 GiB) and returns its
     * result: bare metal switches from the 32-bit core (compatibility mode)
     * to a 64-bit code segment and back; a 64-bit hosted runner calls it
     * directly. NULL where 64-bit code cannot run here, and long_mode_why
     * says why ("the CPU has no long mode (CPUID 0x80000001.EDX.LM)",
     * "mode=32 was given", ...). Filled by after_cpu_probe at the latest. */
    uintptr_t (*call64)(uintptr_t fn, uintptr_t arg);
    const char *long_mode_why;
    /* The self-test's checks of call64 (a 64-bit function's computed value,
     * 64-bit access to memory): a NULL-terminated list; NULL where call64 is NULL. */
    void (*const *call64_checks)(struct selftest_check *check);
    /* Loadable benchmarks (kernel/load/, issue 13): the files given at boot
     * (NULL: none), executable memory for their code (NULL: none), and the
     * serial session's input: read_byte returns the next byte, -1 when none
     * arrived within about a millisecond, -2 when the input is closed
     * (NULL: this platform has no input, the session cannot start). */
    unsigned (*boot_modules)(const struct platform_module **list);
    void (*code_memory)(uint8_t **base, size_t *size);
    int (*read_byte)(void);
    /* The session's idle wait, called when read_byte found nothing: returns
     * once input may have come (at most about 0.1 s later) without keeping
     * the CPU busy (bare metal: HLT on the APIC timer). NULL, or a platform
     * that cannot, leaves read_byte's polling as the wait. */
    void (*wait_input)(void);
    const char *input_name;       /* "serial 0x3f8", "stdin" */
    /* Restarts the machine (the session's reboot request); NULL: cannot. */
    void (*reboot)(void);
    /* The watchdog over a loaded body (suite.c arms it around each one):
     * ms > 0 arms it to abandon the running code as a fault (VEC_WATCHDOG)
     * after ms milliseconds, 0 disarms it. Returns NULL, or why there is no
     * watchdog here. NULL: none on this platform. */
    const char *(*watchdog)(uint32_t ms);
    /* Sampling where the cycles go inside a body (sample=, cycles=:
     * platform/sampler.h): bare metal's PMI, APIC timer and PIT; the hosted
     * runner's perf_event_open(2) sampling. NULL: none on this platform. */
    const struct platform_sampler *sampler;
    /* The screen layout's rows (header, progress, table, summary); NULL where
     * there is no screen (the hosted runner, the unit tests). */
    const struct screen_ops *screen;
    /* Every core (issue 12): start the requested processors (INIT-SIPI-SIPI
     * on bare metal) and say what each did; they then wait in a polled
     * mailbox (the hosted runner: one pinned thread per CPU). NULL where
     * the platform cannot. */
    void (*smp_start)(const struct smp_request *req, struct smp_info *out);
    /* Posts fn(arg) to the started processor in smp_info slot `slot`'s
     * mailbox (false: it is not waiting there); smp_wait waits up to ms for
     * it to finish: SMP_DONE, SMP_BUSY (still running: abandon it) or
     * SMP_LOST (it faulted: its guard parked it). NULL with smp_start. */
    bool (*smp_call)(unsigned slot, uintptr_t (*fn)(uintptr_t arg), uintptr_t arg);
    int (*smp_wait)(unsigned slot, uint32_t ms, uintptr_t *result);
};

/* The platform in use, installed once before anything is printed. */
extern const struct platform *platform;
void platform_install(const struct platform *p);

/* The services portable code calls, all through the one installed struct. */
static inline void out_write(enum out_channel channel, const char *text, size_t len)
{
    if (platform)
        platform->out(channel, text, len);
}

#endif
