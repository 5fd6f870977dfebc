/* The records of one result, skip, histogram and event sweep, from the
 * harness's struct result; the formats (kernel/formats/) render them. The
 * event sweep still writes its readable lines here (its text needs each
 * event's description, which the record does not carry). */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "stats/stats_verdict.h"
#include "harness/plan.h"
#include "options/settings.h"
#include "record/log.h"
#include "write.h"
#include "harness/body_place.h"

static void stats_object(const char *key, const struct result_stats *st)
{
    rec_obj_open(key);
    rec_fixed("min", st->min, 2);
    rec_fixed("median", st->median, 2);
    rec_fixed("mode", st->mode, 2);
    rec_u64("mode_count", st->mode_count);
    rec_fixed("mean", st->mean, 2);
    rec_fixed("mean_20_80", st->mean_20_80, 2);
    rec_fixed("max", st->max, 2);
    rec_fixed("stddev", st->stddev, 2);
    rec_u64("outliers", st->outliers);
    rec_obj_close();
}

/* The readable bars are the text format's (formats/text.c). */
static void histogram(const struct result *r)
{
    rec_arr_open("histogram");
    for (unsigned i = 0; i < r->hist_bins; i++) {
        rec_obj_open(NULL);
        rec_fixed("from", r->hist_from_x100[i], 2);
        rec_u64("count", r->hist_count[i]);
        rec_obj_close();
    }
    rec_arr_close();
}

static void raw_samples(const struct measurement *m)
{
    rec_open("samples");
    rec_u64_list("t0", m->t_empty, m->samples);
    rec_u64_list("tU", m->t_u, m->samples);
    rec_u64_list("t2U", m->t_2u, m->samples);
    rec_close();
}

static void events(const struct event_counts *ec)
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
        }
        rec_obj_close();
    }
    rec_arr_close();
}

static void fixed_or_null(const char *key, bool have, int64_t x100)
{
    if (have)
        rec_fixed(key, x100, 2);
    else
        rec_null(key);
}

/* The expectation and its source: "expect_source" names it in full ("LLVM 16
 * sapphirerapids model"; absent with no expectation), the object's "kind" in
 * one word for the verdict. */
static void expectation(const struct result *r)
{
    if (!r->expect) {
        rec_null("expect");
        return;
    }
    rec_obj_open("expect");
    rec_str("uarch", uarch_name(r->expect_uarch));
    rec_fixed("cycles", r->expect->x100, 2);
    rec_fixed("tolerance", r->tolerance_x100, 2);
    rec_str("kind", uarch_source_kind(r->expect->source));
    rec_obj_close();
    rec_str("expect_source", r->expect->source);
}

/* The real clock (APERF/MPERF) of this result, or why there is none. */
static void real_clock(const struct result *r)
{
    const struct aperf_result *a = &r->m->aperf;
    if (!a->have) {
        rec_null("freq_mhz");
        rec_str("aperf_reason", a->why ? a->why : "not read");
        return;
    }
    if (a->freq_known) {
        rec_u64("freq_mhz", a->freq_mhz);
        rec_u64("freq_lo_mhz", a->freq_lo_mhz);
        rec_u64("freq_hi_mhz", a->freq_hi_mhz);
        rec_bool("freq_changed", a->freq_changed);
    } else {
        rec_null("freq_mhz");
        rec_str("aperf_reason", "the TSC rate is unknown: no frequency");
    }
    if (r->have_estimate) {
        rec_fixed("cycles_estimate", r->estimate_x100, 2);
        rec_bool("estimate_agrees", !r->estimate_disagrees);
    }
}

static void memory(const struct result *r)
{
    if (r->working_set)
        rec_u64("working_set", r->working_set);
    if (r->llc)
        rec_u64("llc", r->llc);
    if (r->page_size) {
        rec_u64("page_size", r->page_size);
    } else {
        rec_null("page_size");
        rec_str("page_size_reason", r->page_why ? r->page_why : "unknown");
    }
}

/* Every flag raised: the statistics' (stats_verdict.h) in their order,
 * then the platform's. */
static void flags(const struct result *r)
{
    rec_arr_open("flags");
    for (unsigned i = 0; i < STATS_FLAG_COUNT; i++)
        if (r->m->judge.flags & (1u << i))
            rec_str(NULL, stats_flag_name(1u << i));
    if (!r->trusted)
        rec_str(NULL, "untrusted-timer");
    if (r->disturbed)
        rec_str(NULL, "disturbed");
    rec_arr_close();
}

/* The modes (two or more) and the cost per copy at U, 2U and 4U, per body. */
static void modes_and_linearity(const struct result *r)
{
    const struct measurement *m = r->m;
    if (m->modes.count >= 2) {
        rec_arr_open("modes");
        for (unsigned i = 0; i < m->modes.count; i++) {
            rec_obj_open(NULL);
            rec_fixed("ticks", (int64_t)stats_div_round(m->modes.mode[i].value_x100, r->iters), 2);
            rec_u64("count", m->modes.mode[i].count);
            rec_obj_close();
        }
        rec_arr_close();
    }
    if (m->lin.have) {
        rec_obj_open("linearity");
        rec_fixed("u", m->lin.u_x100, 2);
        rec_fixed("2u", m->lin.u2_x100, 2);
        rec_fixed("4u", m->lin.u4_x100, 2);
        rec_obj_close();
    }
}

/* How far the result can be trusted (docs/log-format.md, "Trust"). A
 * result built without marks (a test's) gets them from its judgement. */
static void judgement(const struct result *r)
{
    char marks[RESULT_MARKS_MAX];
    if (r->marks[0])
        kstrlcpy(marks, r->marks, sizeof marks);
    else
        result_marks(&r->m->judge, r->trusted, r->disturbed, marks);
    rec_bool("stable", r->m->stable);
    rec_str("judgement", stats_verdict_name(r->m->judge.verdict));
    flags(r);
    rec_str("reason", r->m->judge.reason);
    rec_str("marks", marks);
    modes_and_linearity(r);
}

static void record(const struct result *r)
{
    const struct measurement *m = r->m;
    rec_open("result");
    rec_str("name", r->b->name);
    rec_str("desc", r->b->desc);
    if (r->on_cpu) { /* on=: which processor (issue 12) */
        rec_u64("cpu", r->cpu);
        if (r->core_type)
            rec_u64("core_type", r->core_type);
        else
            rec_null("core_type");
    }
    rec_u64("unroll", m->unroll);
    rec_u64("loops", m->cold ? 1 : m->loops);
    rec_u64("samples", m->samples);
    rec_bool("cold", m->cold);
    rec_fixed("ticks", m->value_x100, 2);
    rec_fixed("ticks_min", m->min_x100, 2);
    rec_fixed("ticks_vs_empty", m->empty_x100, 2);
    rec_bool("methods_agree", m->methods_agree);
    fixed_or_null("cycles", r->have_cycles, r->cycles_x100);
    rec_str("cycles_unit", r->cycles_unit);
    if (r->cycles_alongside)
        rec_str("cycles_reference", "ADD chain sampled alongside");
    real_clock(r);
    if (r->b->insns > 1)
        rec_fixed("ticks_per_insn", m->value_x100 / r->b->insns, 2);
    write_per_instruction(r);
    fixed_or_null("ns", r->have_ns, r->ns_x100);
    rec_str("time_unit", r->time_unit);
    stats_object("stats", &r->per_body);
    rec_u64("negative", m->negative);
    judgement(r);
    rec_u64("reruns", m->reruns);
    if (m->avx_warmup) {
        rec_u64("warmups", m->warmups);
        rec_bool("warmup_settled", m->warmup_settled);
    }
    rec_bool("trusted", r->trusted);
    if (m->smi_known)
        rec_u64("smi", m->smis);
    else
        rec_null("smi");
    if (m->switches_known) /* the hosted runner: samples the scheduler interrupted */
        rec_u64("switched", m->switched);
    expectation(r);
    rec_str("verdict", r->verdict);
    if (r->memory)
        memory(r);
    if (r->aligned) { /* where the copies started, the same for U and 2U (body_place.h) */
        rec_obj_open("alignment");
        rec_u64("boundary", BODY_PLACE_BOUNDARY);
        rec_u64("offset", r->align_offset);
        rec_obj_close();
    }
    if (r->ec->n)
        events(r->ec);
    if (r->hist_bins)
        histogram(r);
    rec_close();
}

/* The readable row, its counter lines and histogram (formats/text.c) and
 * the screen's row (formats/screen.c) come from the record. */
void write_result(const struct result *r)
{
    record(r);
    log_tally_result(r->m->judge.verdict != STATS_VERDICT_STABLE || !r->trusted || r->disturbed, !r->trusted);
    if (settings.raw)
        raw_samples(r->m);
}

void write_skip(const char *name, const char *reason)
{
    rec_open("skip");
    rec_str("name", name);
    rec_str("reason", reason);
    rec_close();
}

void write_results_heading(const struct plan *pl)
{
    /* The run's parameters spelled out: in the marks below U is the
     * untrusted timer and S unstable, so no letter names them (issue 31). */
    log_text("\n== Benchmarks == per body: ticks, core cycles (c exact, ~ estimated); "
             "unroll %u, loops %u%s, samples %u\n", (unsigned)pl->unroll, (unsigned)pl->loops,
             pl->loops_grow ? " (more for a short sample)" : "", (unsigned)pl->samples);
    log_text("  %-31s %8s %9s %8s %-5s %-17s %s\n", "benchmark", "ticks", "cycles", "per insn", "marks",
             "expected", "verdict");
    log_text("  marks: ok stable on a trusted timer | U untrusted timer | ? not judged | S unstable\n"
             "         N negative differences | M modes or non-linear | D disturbed\n");
}

void write_sweep(const struct event_sweep *s)
{
    log_text("\n== Event sweep: %s (%s driver, %u events in %u passes, per body) ==\n", s->b->name,
             s->driver, s->n, s->passes);
    rec_open("sweep");
    rec_str("name", s->b->name);
    rec_str("driver", s->driver);
    rec_u64("passes", s->passes);
    rec_arr_open("events");
    for (unsigned i = 0; i < s->n; i++) {
        char v[24] = "-";
        if (!s->err[i])
            kfixed(v, sizeof v, s->x100[i], 2);
        log_text("  %-40s %12s  %s\n", s->ev[i]->name, v, s->ev[i]->desc);
        rec_obj_open(NULL);
        rec_str("event", s->ev[i]->name);
        rec_hex("code", s->ev[i]->code);
        fixed_or_null("per_body", !s->err[i], s->x100[i]);
        rec_obj_close();
    }
    rec_arr_close();
    rec_close();
}
