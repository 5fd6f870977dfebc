/* How one result, skip or histogram is written: a readable line and a
 * JSON record. */
#include "cpu/cpu.h"
#include "lib/fmt.h"
#include "harness/measure.h"
#include "lib/option.h"
#include "log.h"
#include "harness/result.h"
#include "harness/timer.h"
#include "harness/trust.h"
#include "cpu/uarch.h"

OPTION_BOOL(raw, "raw", false, "also print every raw sample (t(0), t(U), t(2U))");
OPTION_BOOL(hist, "hist", false, "also print a histogram of each result's samples");

/* The expectation for this CPU, if the benchmark states one. */
static const struct bench_expect *expectation(const struct bench *b)
{
    enum uarch here = uarch_of(cpu);
    for (int i = 0; i < BENCH_EXPECT_MAX; i++)
        if (b->expect[i].uarch != UARCH_NONE && b->expect[i].uarch == here)
            return &b->expect[i];
    return NULL;
}

/* The stated tolerance, or 10 % with at least 0.10 cycles. */
static int64_t expect_tolerance(const struct bench_expect *e)
{
    return e->tol_x100 ? e->tol_x100 : (e->x100 / 10 > 10 ? e->x100 / 10 : 10);
}

static const char *verdict(const struct bench_expect *e, bool have_cycles, int64_t cycles_x100)
{
    if (!e)
        return "no expectation";
    if (!trust.trusted)
        return "untrusted timing";
    if (!have_cycles)
        return "no cycle unit";
    int64_t d = cycles_x100 - e->x100;
    int64_t tol = expect_tolerance(e);
    return (d < 0 ? -d : d) <= tol ? "ok" : "off";
}

static void stats_object(const char *key, const struct stats *st, uint64_t iters)
{
    rec_obj_open(key);
    rec_fixed("min", (int64_t)stats_div_round(st->min * 100, iters), 2);
    rec_fixed("median", (int64_t)stats_div_round(st->median_x100, iters), 2);
    rec_fixed("mode", (int64_t)stats_div_round(st->mode * 100, iters), 2);
    rec_u64("mode_count", st->mode_count);
    rec_fixed("mean", (int64_t)stats_div_round(st->mean_x100, iters), 2);
    rec_fixed("mean_20_80", (int64_t)stats_div_round(st->trimmed_mean_x100, iters), 2);
    rec_fixed("max", (int64_t)stats_div_round(st->max * 100, iters), 2);
    rec_fixed("stddev", (int64_t)stats_div_round(st->stddev_x100, iters), 2);
    rec_u64("outliers", st->outliers);
    rec_obj_close();
}

static void report_histogram(const struct measurement *m, uint64_t iters)
{
    uint32_t bins[16];
    uint64_t lo, width;
    static uint64_t values[MEASURE_SAMPLES_MAX];
    for (uint32_t s = 0; s < m->samples; s++)
        values[s] = m->t_2u[s] > m->t_u[s] ? m->t_2u[s] - m->t_u[s] : 0;
    stats_sort(values, m->samples);
    uint32_t used = stats_histogram(values, m->samples, 16, bins, &lo, &width);
    rec_arr_open("histogram");
    for (uint32_t i = 0; i < used; i++) {
        char from[24];
        kfixed(from, sizeof from, (int64_t)stats_div_round((lo + i * width) * 100, iters), 2);
        log_text("      %10s | %5u ", from, (unsigned)bins[i]);
        for (uint32_t k = 0; k < bins[i] * 40 / m->samples; k++)
            log_text("#");
        log_text("\n");
        rec_obj_open(NULL);
        rec_fixed("from", (int64_t)stats_div_round((lo + i * width) * 100, iters), 2);
        rec_u64("count", bins[i]);
        rec_obj_close();
    }
    rec_arr_close();
}

static void report_raw(const struct measurement *m)
{
    rec_open("samples");
    rec_arr_open("t0");
    for (uint32_t s = 0; s < m->samples; s++)
        rec_u64(NULL, m->t_empty[s]);
    rec_arr_close();
    rec_arr_open("tU");
    for (uint32_t s = 0; s < m->samples; s++)
        rec_u64(NULL, m->t_u[s]);
    rec_arr_close();
    rec_arr_open("t2U");
    for (uint32_t s = 0; s < m->samples; s++)
        rec_u64(NULL, m->t_2u[s]);
    rec_arr_close();
    rec_close();
}

static void report_events(const struct event_counts *ec)
{
    rec_arr_open("events");
    for (unsigned i = 0; i < ec->n; i++) {
        rec_obj_open(NULL);
        rec_str("event", ec->names[i]);
        if (ec->err[i]) {
            rec_null("per_body");
            rec_hex("error", (uint64_t)ec->err[i]);
        } else {
            rec_fixed("per_body", ec->x100[i], 2);
            char v[24];
            kfixed(v, sizeof v, ec->x100[i], 2);
            log_text("  %-31s   %s: %s per body\n", "", ec->names[i], v);
        }
        rec_obj_close();
    }
    rec_arr_close();
}

void write_result(const struct bench *b, const struct measurement *m, const struct event_counts *ec)
{
    uint64_t iters = (uint64_t)m->unroll * (m->cold ? 1 : m->loops);
    int64_t cycles = 0, ns = 0;
    bool counted_cycles = ec->cycles_index >= 0 && !ec->err[ec->cycles_index] && !m->cold;
    /* Best first: a proved cycle counter, the P5's TSC, the ADD chain timed
     * alongside, the ADD chain timed once at the start. */
    bool alongside = false;
    bool have_cycles = true;
    if (counted_cycles)
        cycles = ec->x100[ec->cycles_index];
    else if (trust.cycles_exact || !(alongside = measure_ref_cycles_x100(m, &cycles)))
        have_cycles = trust_cycles_x100(m->value_x100, &cycles);
    bool exact = counted_cycles || trust.cycles_exact;
    const char *cycles_unit = !have_cycles ? "unknown" : counted_cycles ? "exact (counter)"
                            : trust.cycles_exact ? "exact" : "estimate";
    bool have_ns = timer.hz != 0;
    if (have_ns)
        ns = (int64_t)(((m->value_x100 < 0 ? 0 : (uint64_t)m->value_x100) * 1000000000ull + timer.hz / 2) /
                       timer.hz);
    const struct bench_expect *e = expectation(b);
    const char *v = verdict(e, have_cycles, cycles);

    char t[24], c[24] = "-", ex[32] = "-";
    kfixed(t, sizeof t, m->value_x100, 2);
    if (have_cycles)
        kfixed(c, sizeof c, cycles, 2);
    if (e) {
        char ev[24];
        kfixed(ev, sizeof ev, e->x100, 2);
        ksnprintf(ex, sizeof ex, "%s %s", uarch_name(e->uarch), ev);
    }
    char disagree[48] = "";
    if (!m->methods_agree) {
        char empty[24];
        kfixed(empty, sizeof empty, m->empty_x100, 2);
        ksnprintf(disagree, sizeof disagree, " [vs empty body: %s]", empty);
    }
    /* Fits 80 columns (the VGA screen) up to the flags; ns are in the record. */
    log_text("  %-31s %8s %8s%s  %-17s %s%s%s%s\n", b->name, t, c,
                have_cycles ? (exact ? "c" : "~") : " ", ex,
                e ? v : "-", disagree, m->stable ? "" : " [unstable]", m->smis ? " [SMI]" : "");

    rec_open("result");
    rec_str("name", b->name);
    rec_str("desc", b->desc);
    rec_u64("unroll", m->unroll);
    rec_u64("loops", m->cold ? 1 : m->loops);
    rec_u64("samples", m->samples);
    rec_bool("cold", m->cold);
    rec_fixed("ticks", m->value_x100, 2);
    rec_fixed("ticks_min", m->min_x100, 2);
    rec_fixed("ticks_vs_empty", m->empty_x100, 2);
    rec_bool("methods_agree", m->methods_agree);
    if (have_cycles)
        rec_fixed("cycles", cycles, 2);
    else
        rec_null("cycles");
    rec_str("cycles_unit", cycles_unit);
    if (alongside)
        rec_str("cycles_reference", "ADD chain sampled alongside");
    if (b->insns > 1)
        rec_fixed("ticks_per_insn", m->value_x100 / b->insns, 2);
    if (have_ns)
        rec_fixed("ns", ns, 2);
    else
        rec_null("ns");
    rec_str("time_unit", timer.mode == READ_PIT ? "pit/1000" : "tsc");
    stats_object("stats", &m->diff, iters);
    rec_u64("negative", m->negative);
    rec_bool("stable", m->stable);
    rec_u64("reruns", m->reruns);
    rec_bool("trusted", trust.trusted);
    if (m->smi_known)
        rec_u64("smi", m->smis);
    else
        rec_null("smi");
    if (e) {
        rec_obj_open("expect");
        rec_str("uarch", uarch_name(e->uarch));
        rec_fixed("cycles", e->x100, 2);
        rec_fixed("tolerance", expect_tolerance(e), 2);
        rec_obj_close();
    } else {
        rec_null("expect");
    }
    rec_str("verdict", v);
    if (ec->n)
        report_events(ec);
    if (opt_hist && !m->cold)
        report_histogram(m, iters);
    rec_close();
    if (opt_raw)
        report_raw(m);
}

void write_skip(const char *name, const char *reason)
{
    log_text("  %-31s skipped: %s\n", name, reason);
    rec_open("skip");
    rec_str("name", name);
    rec_str("reason", reason);
    rec_close();
}

