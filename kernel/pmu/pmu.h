/* Performance-monitoring counters: one interface over the P5 (CESR), P6
 * (PerfEvtSel0/1), Intel architectural perfmon v1-v5 and AMD K7+ counters.
 *
 * A driver is a struct pmu_driver filled by pmu_bind() for one CPU
 * (const struct cpu_info *) and one MSR access path (const struct msr_ops *):
 * the kernel passes platform->msr, unit tests a simulated MSR file. Every MSR
 * access goes through that path and every access may fail (#GP, refused):
 * failures come back as the nonzero code of msr.h, never as a crash.
 *
 * Life of a driver:
 *   kind = pmu_select(cpu, &why);         pure: which family of counters
 *   pmu_bind(&d, kind, cpu, platform->msr); no MSR written
 *   pmu_save(&d);                         reads every MSR the driver may touch
 *   pmu_program / pmu_read ... pmu_stop
 *   pmu_restore(&d); pmu_verify_restore(&d, &check);
 * pmu_prove() (pmu_prove.h) does the whole sequence around a known workload.
 *
 * Counters are numbered 0..gp_counters-1 (general) and PMU_FIXED(i) for the
 * fixed-function counters of Intel architectural perfmon v2+ (the same
 * numbering as the enable bits of IA32_PERF_GLOBAL_CTRL). */
#ifndef CK_PMU_H
#define CK_PMU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "platform/msr.h"

/* PMU_LINUX: the counters as Linux lends them to a process (perf_event_open(2),
 * the hosted runner's driver, kernel/hosted/perf_events.c): no MSR, one file
 * descriptor per counter, hardware and software events (pmu_linux.c). */
enum pmu_kind { PMU_NONE, PMU_P5, PMU_P6, PMU_ARCH, PMU_AMD, PMU_LINUX };

#define PMU_MAX_GP 8
#define PMU_MAX_FIXED 4
#define PMU_FIXED_BASE 32
#define PMU_FIXED(i) (PMU_FIXED_BASE + (unsigned)(i))
#define PMU_IS_FIXED(c) ((c) >= PMU_FIXED_BASE)
#define PMU_MAX_SAVED 40

/* Errors of the PMU layer itself (not faults: FAULT_IS() is false on them). */
#define PMU_ERR_COUNTER 0x401   /* no such counter on this driver */
#define PMU_ERR_EVENT 0x402     /* event not countable here (code, counter, availability) */
#define PMU_ERR_NOT_SAVED 0x403 /* pmu_save() must come before any write */
#define PMU_ERR_PARSE 0x404     /* event text neither a known name nor a raw code */
#define PMU_ERR_KIND 0x405      /* no driver for this kind */
#define PMU_ERR_COLD 0x406      /* not counted: a cold benchmark runs its body once, untimed passes cannot repeat it */
#define PMU_ERR_REFUSED 0x407   /* the operating system refused the event (struct pmu_driver.refused says why) */

/* Qualifiers of a request (struct pmu_eventsel.flags). With neither OS nor
 * USR, both are meant. */
#define PMU_OS 0x01u       /* ring 0 (P5: CPL 0-2) */
#define PMU_USR 0x02u      /* ring > 0 (P5: CPL 3) */
#define PMU_DURATION 0x04u /* P5 only: count clocks while the event is active */
#define PMU_EDGE 0x08u     /* P6/arch/AMD: count rising edges */
#define PMU_INV 0x10u      /* P6/arch/AMD: invert the cmask comparison */

/* Flags of a table entry (struct pmu_event.flags). */
#define PMU_EV_MMX 0x01u      /* P5: Pentium with MMX (P55C) only */
#define PMU_EV_DURATION 0x02u /* P5: the event is a duration, program it in clock mode */

struct pmu_event {
    const char *name;  /* upper case, as the manuals spell it */
    uint16_t code;     /* event select (AMD: 12 bits) */
    uint8_t umask;     /* unit mask (0 on P5) */
    uint8_t counters;  /* bit i: general counter i may count it; 0 = any */
    uint8_t flags;     /* PMU_EV_* */
    int8_t arch_bit;   /* Intel: bit of CPUID.0AH:EBX ("not available"), -1 none */
    const char *desc;
};

/* One request: what a counter should count. */
struct pmu_eventsel {
    const char *name;  /* table name, or NULL for a raw code */
    uint16_t code;
    uint8_t umask;
    uint8_t cmask;     /* counter mask (P6/arch/AMD), 0 = count every event */
    uint8_t flags;     /* PMU_OS | PMU_USR | ... */
    uint8_t counters;  /* allowed general counters (from the table), 0 = any */
};

/* One MSR the driver may touch, and its value before the driver touched it. */
#define PMU_MSR_COUNTER 0x01u  /* a counter (moves while enabled) */
#define PMU_MSR_SEXT32 0x02u   /* writes set bits 31:0 and sign-extend bit 31 */
struct pmu_saved_msr {
    uint32_t msr;       /* read address */
    uint32_t write_msr; /* write address (differs for IA32_A_PMCx full-width writes) */
    uint8_t flags;      /* PMU_MSR_* */
    uint8_t width;      /* counters: width in bits */
    uint8_t counter;    /* counters: driver counter number */
    int status;         /* result of the saving read: 0 = value valid */
    uint64_t value;
};

struct pmu_driver;
struct pmu_verdict; /* pmu_prove.h */
struct pmu_driver_ops {
    int (*program)(struct pmu_driver *d, unsigned counter, const struct pmu_eventsel *ev);
    int (*read)(struct pmu_driver *d, unsigned counter, uint64_t *value);
    int (*stop)(struct pmu_driver *d);
    /* The MSRs this driver touches, in restore order (counters first, the
     * master enable last). Returns how many were written to out. */
    unsigned (*list_msrs)(const struct pmu_driver *d, struct pmu_saved_msr *out, unsigned max);
    /* Whether the saved control values had this counter counting. */
    bool (*saved_counting)(const struct pmu_driver *d, unsigned counter);
    /* Optional (NULL: none). A driver with events the loop of pmu_prove()
     * cannot prove (Linux's software events: page faults, context switches)
     * proves them its own way after it, adding its probes to *v. */
    void (*prove_more)(struct pmu_driver *d, struct pmu_verdict *v);
    /* Optional: NULL when ev may be counted, else why not (an event whose
     * proof failed or that was never proved). */
    const char *(*unusable)(const struct pmu_driver *d, const struct pmu_eventsel *ev);
};

/* The events pmu_prove() programs: which counter and what. */
struct pmu_proof_slot {
    bool used;
    unsigned counter;
    struct pmu_eventsel sel;
};
enum { PMU_PROOF_INSN, PMU_PROOF_CYCLES, PMU_PROOF_BRANCH, PMU_PROOF_FIXED_INSN,
       PMU_PROOF_FIXED_CYCLES, PMU_PROOF_FIXED_REF, PMU_PROOF_SLOTS };

struct pmu_driver {
    const char *name;          /* "p5", "p5-mmx", "p6", "intel-arch-v4", "amd-k7", "amd-core" ... */
    enum pmu_kind kind;
    unsigned gp_counters, gp_width;
    unsigned fixed_counters, fixed_width;
    const struct pmu_event *events;       /* table of the named events */
    unsigned nevents;
    const struct pmu_event *fixed_events; /* what fixed counter i counts */
    bool has_rdpmc;            /* RDPMC exists (P55C, P6 and later) */
    const char *reads;         /* how pmu_read() reads a counter (NULL: "rdmsr") */
    const char *refused;       /* the operating system's refusal of the last event it refused, in
                                  its words ("perf_event_open(...): ENOENT: ..."); NULL: none */
    const struct pmu_driver_ops *ops;
    const struct msr_ops *msr;
    const struct cpu_info *cpu;

    /* Family details, set by pmu_bind(). */
    unsigned version;          /* arch perfmon version; AMD: 2 with PerfMonV2, else 1 */
    bool full_width_write;     /* arch: IA32_A_PMCx (0x4C1+) usable */
    bool core_ext;             /* AMD: the six counters at 0xC0010200 */
    uint32_t unavailable;      /* arch: events not available (CPUID.0AH:EBX, and bits beyond its length) */
    uint32_t fixed_mask;       /* arch: fixed counters that exist */
    uint32_t fixed_proven;     /* fixed counters pmu_prove() saw counting: only these take events */
    uint32_t reserved;         /* general counters no event may take (a benchmark writes them) */
    struct pmu_proof_slot proof[PMU_PROOF_SLOTS];

    /* State. */
    uint64_t programmed;       /* bit c: counter c (fixed: bit 32+i) programmed by us */
    uint64_t ctl_shadow;       /* P5 CESR / arch IA32_FIXED_CTR_CTRL as we last wrote it */
    bool saved_done;
    struct pmu_saved_msr saved[PMU_MAX_SAVED];
    unsigned nsaved;
    uint32_t last_msr;         /* the MSR of the last access (for evidence) */
    int last_status;           /* its result */
};

/* ---- choice and binding (pmu_select.c) ---- */

/* Which driver fits this CPU. Pure: reads only *c. *why (may be NULL) gets a
 * static sentence explaining the choice. */
enum pmu_kind pmu_select(const struct cpu_info *c, const char **why);
/* Counter 0's MSR in the family's own counter set (0: none known). */
uint32_t pmu_counter0_msr(const struct cpu_info *c);
/* Whether RDPMC exists on this CPU. */
bool pmu_has_rdpmc(const struct cpu_info *c);
const char *pmu_kind_name(enum pmu_kind kind);
/* Fills *d for kind. Reads no MSR except the read-only capability MSR of
 * architectural perfmon (IA32_PERF_CAPABILITIES, when CPUID says it exists).
 * Returns 0 or PMU_ERR_KIND. */
int pmu_bind(struct pmu_driver *d, enum pmu_kind kind, const struct cpu_info *c,
             const struct msr_ops *m);

/* ---- counters and their use (pmu_counter.c: which counters, widths, deltas;
 *      pmu_core.c: program, read, stop, RDPMC index) ---- */

/* Counter exists on this driver. */
bool pmu_counter_valid(const struct pmu_driver *d, unsigned counter);
unsigned pmu_counter_width(const struct pmu_driver *d, unsigned counter);
/* The MSR the driver reads this counter from (0: no such counter). */
uint32_t pmu_counter_msr(const struct pmu_driver *d, unsigned counter);
int pmu_program(struct pmu_driver *d, unsigned counter, const struct pmu_eventsel *ev);
int pmu_read(struct pmu_driver *d, unsigned counter, uint64_t *value);
int pmu_stop(struct pmu_driver *d);

/* (after - before) modulo 2^width: a counter that wrapped still gives the
 * right delta (provided it wrapped at most once). */
uint64_t pmu_delta(uint64_t before, uint64_t after, unsigned width);
uint64_t pmu_width_mask(unsigned width);

/* The ECX value of RDPMC for this counter; false when the CPU has no RDPMC
 * or no such counter. (Arch fixed counters: bit 30 set, AMD: the index.) */
bool pmu_rdpmc_index(const struct pmu_driver *d, unsigned counter, uint32_t *ecx);

/* ---- save / restore (pmu_save.c) ---- */

/* Reads every MSR the driver may touch. Returns 0, or the first failure
 * (the entries that failed keep status != 0 and are never written back). */
int pmu_save(struct pmu_driver *d);
/* Stops counting, then writes every saved value back. Returns the first failure. */
int pmu_restore(struct pmu_driver *d);

struct pmu_restore_check {
    unsigned checked;    /* MSRs read back */
    unsigned mismatches; /* read back different from what was restored */
    unsigned inexact;    /* counters the hardware cannot restore exactly (32-bit sign-extended writes) */
    unsigned moving;     /* counters that were counting before us and moved on (accepted) */
    unsigned faults;     /* read-backs that failed */
    uint32_t first_msr;  /* the first mismatch */
    uint64_t first_expected, first_actual;
};
/* Reads every saved MSR again and compares. Returns the number of mismatches
 * plus failed reads (0 = everything reads back its saved value). */
unsigned pmu_verify_restore(struct pmu_driver *d, struct pmu_restore_check *out);

/* ---- events (pmu_events.c) ---- */

/* Case-insensitive lookup in the driver's table (and fixed-counter events). */
const struct pmu_event *pmu_event_find(const struct pmu_driver *d, const char *name);
/* The request for a table entry; flags PMU_OS|PMU_USR (+ duration when the
 * entry is one). */
struct pmu_eventsel pmu_eventsel_of(const struct pmu_event *e);
/* "INST_RETIRED" (a table name), or a raw code "0xc0", "0x2e:0x41"
 * (code:umask), "0x1c0" (AMD 12-bit). Returns 0 or PMU_ERR_PARSE / PMU_ERR_EVENT. */
int pmu_event_parse(const struct pmu_driver *d, const char *text, struct pmu_eventsel *out);
/* The request as events= text that parses back to it (pmu_label.c): the
 * table name or raw code, then only the qualifiers the name alone does not
 * mean (":0x41" unit mask, ":u"/":k" ring, ":dur" P5 clock mode), so
 * "0x16:dur" stays "0x16:dur". d may be NULL (a name is then taken to mean
 * unit mask 0, both rings, event mode). Returns the length, as ksnprintf;
 * PMU_LABEL_MAX holds every label the parser can produce. */
#define PMU_LABEL_MAX 48
int pmu_eventsel_label(const struct pmu_driver *d, const struct pmu_eventsel *s, char *buf, size_t size);
/* Whether counter may count ev on this driver (code range, counter
 * restrictions, CPUID availability). */
bool pmu_event_allowed(const struct pmu_driver *d, unsigned counter, const struct pmu_eventsel *ev);
/* Table entry usable on this CPU (P55C-only events, arch availability bits). */
bool pmu_event_available(const struct pmu_driver *d, const struct pmu_event *e);

/* Event tables (events_*.c). */
extern const struct pmu_event pmu_events_p5[];
extern const unsigned pmu_events_p5_count;      /* all, MMX ones last */
extern const unsigned pmu_events_p5_base_count; /* without the P55C events */
extern const struct pmu_event pmu_events_p6[];
extern const unsigned pmu_events_p6_count;
extern const struct pmu_event pmu_events_arch[];
extern const unsigned pmu_events_arch_count;
extern const struct pmu_event pmu_events_arch_fixed[]; /* fixed counters 0..3 */
extern const struct pmu_event pmu_events_amd[];
extern const unsigned pmu_events_amd_count;
/* Linux's generic events (pmu_linux.c): code = the event's config, umask =
 * its perf type (PMU_LINUX_HARDWARE or PMU_LINUX_SOFTWARE). */
extern const struct pmu_event pmu_events_linux[];
extern const unsigned pmu_events_linux_count;

/* Per-family binding (pmu_p5.c ...), called by pmu_bind(). */
void pmu_p5_bind(struct pmu_driver *d);
void pmu_p6_bind(struct pmu_driver *d);
void pmu_arch_bind(struct pmu_driver *d);
void pmu_amd_bind(struct pmu_driver *d);

/* MSR access that records what it touched (pmu_core.c; for the drivers). */
int pmu_msr_rd(struct pmu_driver *d, uint32_t msr, uint64_t *v);
int pmu_msr_wr(struct pmu_driver *d, uint32_t msr, uint64_t v);
/* Sets proof slot `slot` (PMU_PROOF_*) to count code/umask on counter; the
 * name comes from the driver's table. */
void pmu_set_proof(struct pmu_driver *d, int slot, unsigned counter, uint16_t code, uint8_t umask,
                   uint8_t flags);
/* The saved value of msr (false when not saved or unreadable). */
bool pmu_saved_value(const struct pmu_driver *d, uint32_t msr, uint64_t *v);
/* A raw CPUID leaf from cpu_info.raw (false when it was not recorded). */
bool pmu_cpuid_leaf(const struct cpu_info *c, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);

#endif
