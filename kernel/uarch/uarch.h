/* The microarchitecture room: one file per microarchitecture in
 * kernel/uarch/ (p5.c, zen4.c, ...) says which CPUs it is (identity ranges),
 * what it is called and what each benchmark is expected to cost on it (its
 * table), with the source of every value. The file registers itself with
 * UARCH(...) in the ck_uarchs section, as a benchmark does in ck_benches, so
 * adding a microarchitecture is adding one file (docs/adding-a-cpu.md).
 *
 * The room sits just above cpu/: it reads the identity cpu/ decoded
 * (vendor, display family and model, stepping) and nothing else. */
#ifndef CK_UARCH_H
#define CK_UARCH_H
#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"

/* A range of identities: vendor, display family, display models first..last
 * and steppings (cpu.h: display family and model as SDM vol. 2A "CPUID"
 * combines them). UARCH_MODELS(...) fills a range for every stepping. */
struct uarch_range {
    uint8_t vendor;                  /* enum cpu_vendor */
    uint8_t family, first, last;     /* display family; display models first..last */
    uint8_t stepping_first, stepping_last;
    bool no_cpuid;                   /* instead: a processor without CPUID (a 486 the
                                        probe recognised by EFLAGS.AC alone) */
};
#define UARCH_MODELS(v, f, lo, hi) { VENDOR_##v, f, lo, hi, 0, 0xff, false }

/* One row of a table: what a benchmark (by its full name) is expected to
 * cost per body, in core cycles x100, and where the value comes from. */
struct uarch_expect {
    const char *bench;
    int32_t x100;
    int32_t tol_x100;                /* accepted distance; 0: 10 % of the value, at least 0.10 */
    const char *source;              /* "P5 pairing model", "LLVM 16 znver4 model" (generated,
                                        llvm_tables.c), "measured on silicon, cited: [IX1] ..."
                                        (docs/references.md); uarch_source_kind() sorts them */
};

#define UARCH_X100(v) ((int32_t)((v) * 100.0 + ((v) >= 0 ? 0.5 : -0.5)))
/* EXPECT(bench, cycles, source) or EXPECT_TOL(bench, cycles, tolerance, source). */
#define EXPECT(bench, v, source) { bench, UARCH_X100(v), 0, source }
#define EXPECT_TOL(bench, v, t, source) { bench, UARCH_X100(v), UARCH_X100(t), source }

struct uarch {
    const char *name;                /* printed with each verdict ("P5 1.00") and the
                                        key a loaded benchmark file uses */
    const char *llvm;                /* LLVM's -mcpu name when one LLVM model is exactly
                                        this microarchitecture; NULL otherwise */
    const char *covers;              /* the cores, in words, with the source of the ranges */
    const struct uarch_range *ranges;
    unsigned nranges;
    const struct uarch_expect *table;
    unsigned ntable;
};

#define UARCH_SECTION __attribute__((section("ck_uarchs"), used, aligned(sizeof(void *))))
#define UARCH_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
/* UARCH(p5, .name = "P5", ...) with the arrays p5_ranges and p5_table. */
#define UARCH(id, ...)                                                                            \
    static const struct uarch uarch_##id UARCH_SECTION = {                                       \
        .ranges = id##_ranges, .nranges = UARCH_COUNT_OF(id##_ranges),                           \
        .table = id##_table, .ntable = UARCH_COUNT_OF(id##_table), __VA_ARGS__ }

/* The registry. */
const struct uarch *uarch_begin(void);
const struct uarch *uarch_end(void);

/* The microarchitectures a CPU is, most specific first: every one with a
 * range that holds its identity, ordered by the narrowest such range (Zen 4's
 * models before all of family 19h). A table states what it knows; a value
 * the specific one lacks is taken from the broader one. */
#define UARCH_MATCH_MAX 5
struct uarch_match {
    const struct uarch *u[UARCH_MATCH_MAX];
    unsigned n;
    /* Set when the identity is in doubt (the model number names a core whose
     * features contradict the CPU's: issue "identity sanity",
     * uarch_identity_uncertain); then no table is attached by name and every
     * benchmark has no expectation. */
    bool uncertain;
};
/* The files whose ranges hold c, most specific first, then the generated
 * table of LLVM's model for c's identity (kernel/cpu/cpu_models.c's LLVM
 * name, llvm_tables.c): a hand-written value (cited, or a derived model like
 * P5's) wins over LLVM's model of the same benchmark. */
void uarch_match(const struct cpu_info *c, struct uarch_match *m);
/* Whether c's features contradict the microarchitecture its model number
 * names (identity.c); the reason, for the cpu record and the screen, in why. */
bool uarch_identity_uncertain(const struct cpu_info *c, char *why, size_t size);
/* The LLVM model table for c's identity, NULL when none (or uncertain). */
const struct uarch *uarch_llvm_of(const struct cpu_info *c);
/* A source in one word for the readable verdict: "LLVM" (a generated LLVM
 * model), "model" (a derived model: P5's pairing model), "file" (a loaded
 * benchmark file's own), "cited" (a measurement on silicon, cited). */
const char *uarch_source_kind(const char *source);
bool uarch_range_holds(const struct uarch_range *r, const struct cpu_info *c);
/* How many identities r spans (models times steppings): the narrower, the more specific. */
uint32_t uarch_range_span(const struct uarch_range *r);

/* The most specific microarchitecture of c, or NULL. */
const struct uarch *uarch_of(const struct cpu_info *c);
const char *uarch_name(const struct uarch *u); /* "none" for NULL */

/* The row for benchmark `bench` in u's table, or NULL. */
const struct uarch_expect *uarch_table_row(const struct uarch *u, const char *bench);

/* The expectation for `bench` on the matched CPU: the first table, most
 * specific first, that has a row for it (its microarchitecture in *from), or
 * NULL (also when the identity is uncertain). */
const struct uarch_expect *uarch_expect_for(const struct uarch_match *m, const char *bench,
                                            const struct uarch **from);

/* "P5", "p5", "golden cove", "Golden_Cove" all name one microarchitecture,
 * "sapphirerapids" a generated LLVM model table; NULL when none is called that. */
const struct uarch *uarch_named(const char *name);

#endif
