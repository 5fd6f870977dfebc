/* smp/chase/loaded: the chase's latency per step (how many processors
 * streamed beside it) and each streamer's bandwidth; a table for people
 * and one "smp_loaded" record (README.md, "Shared-cache latency under
 * load"). */
#include "lib/div64.h"
#include "record/log.h"
#include "report/write.h"
#include "smp/loaded_chase.h"

#define NAME "smp/chase/loaded"

/* x100 fixed point as text: 1234 -> "12.34". */
static void text_x100(uint64_t v)
{
    log_text(" %8llu.%02u", (unsigned long long)u64_divmod(v, 100, 0), (unsigned)(v % 100));
}

/* Ticks (x100) to ns (x100) at hz; 0 when the rate is unknown. */
static uint64_t ns_x100(uint64_t ticks_x100, uint64_t hz)
{
    if (!hz)
        return 0;
    if (ticks_x100 < 18000000000ull) /* times 10^9 stays below 2^64 */
        return u64_divmod(ticks_x100 * 1000000000ull, hz, 0);
    return u64_divmod(ticks_x100, hz, 0) * 1000000000ull;
}

/* Bytes per million ticks: the bandwidth's one division, kept precise for
 * the slow streams of an emulator (below one byte per tick). */
static uint64_t bytes_per_mtick(const struct loaded_stream *x)
{
    return u64_divmod(x->bytes * 1000000ull, x->ticks, 0);
}

#define PER_LINE 4 /* streamers per line: a row fits 80 columns */

/* A step's streamers: APIC ID and bytes per tick, PER_LINE to a line. */
static void stream_cells(const struct loaded_step *st)
{
    if (!st->streamers)
        log_text("    -");
    for (unsigned i = 0; i < st->streamers; i++) {
        const struct loaded_stream *x = &st->stream[i];
        uint64_t bpt = x->ticks ? bytes_per_mtick(x) / 10000 : 0;
        if (i && i % PER_LINE == 0)
            log_text("\n%35s", ""); /* under the first streamer */
        if (x->ticks)
            log_text("  %3u: %llu.%02u", (unsigned)x->apic_id, (unsigned long long)(bpt / 100),
                     (unsigned)(bpt % 100));
        else
            log_text("  %3u: -", (unsigned)x->apic_id);
    }
    log_text("\n");
}

static void table(const struct loaded_result *r)
{
    log_text("\n== " NAME ": chase over %llu KiB (L%u: %llu KiB) on APIC ID %u ==\n",
             (unsigned long long)(r->working_set >> 10), r->llc_level, (unsigned long long)(r->llc >> 10),
             (unsigned)r->chaser_apic);
    log_text("  chase: ticks per load; each streamer reads %llu KiB (its bytes/tick)\n",
             (unsigned long long)(r->stream_bytes >> 10));
    log_text("  streamers         min      median  APIC ID: bytes/tick\n");
    for (unsigned s = 0; s < r->nsteps; s++) {
        const struct loaded_step *st = &r->step[s];
        log_text("  %9u", st->streamers);
        text_x100(st->min_x100);
        text_x100(st->median_x100);
        stream_cells(st);
    }
}

static void streams(const struct loaded_step *st, uint64_t hz)
{
    rec_arr_open("streams");
    for (unsigned i = 0; i < st->streamers; i++) {
        const struct loaded_stream *x = &st->stream[i];
        rec_obj_open(NULL);
        rec_u64("apic_id", x->apic_id);
        rec_u64("bytes", x->bytes);
        rec_u64("ticks", x->ticks);
        if (x->ticks)
            rec_fixed("bytes_per_tick", (int64_t)(bytes_per_mtick(x) / 10000), 2);
        else
            rec_null("bytes_per_tick");
        if (x->ticks && hz)
            rec_u64("mb_per_s", u64_divmod(bytes_per_mtick(x) * hz, 1000000000000ull, 0));
        else
            rec_null("mb_per_s");
        rec_obj_close();
    }
    rec_arr_close();
}

static void fixed_or_null(const char *key, uint64_t x100, bool known)
{
    if (known)
        rec_fixed(key, (int64_t)x100, 2);
    else
        rec_null(key);
}

static void steps(const struct loaded_result *r)
{
    rec_arr_open("steps");
    for (unsigned s = 0; s < r->nsteps; s++) {
        const struct loaded_step *st = &r->step[s];
        rec_obj_open(NULL);
        rec_u64("streamers", st->streamers);
        rec_fixed("min_ticks_per_load", (int64_t)st->min_x100, 2);
        rec_fixed("median_ticks_per_load", (int64_t)st->median_x100, 2);
        fixed_or_null("min_ns_per_load", ns_x100(st->min_x100, r->hz), r->hz != 0);
        fixed_or_null("median_ns_per_load", ns_x100(st->median_x100, r->hz), r->hz != 0);
        streams(st, r->hz);
        rec_obj_close();
    }
    rec_arr_close();
}

void write_loaded_chase(const struct loaded_result *r, bool trusted)
{
    if (r->skip) {
        write_skip(NAME, r->skip);
        return;
    }
    table(r);
    if (!trusted)
        log_text("  (timings untrusted here: see the trust record)\n");
    rec_open("smp_loaded");
    rec_str("name", NAME);
    rec_bool("trusted", trusted);
    rec_u64("apic_id", r->chaser_apic);
    rec_u64("working_set", r->working_set);
    rec_u64("llc", r->llc);
    rec_u64("llc_level", r->llc_level);
    rec_u64("stream_bytes", r->stream_bytes);
    rec_u64("loads", LOADED_LOADS);
    rec_u64("samples", LOADED_SAMPLES);
    steps(r);
    rec_arr_open("lost");
    for (unsigned i = 0; i < r->lost; i++)
        rec_u64(NULL, r->lost_apic[i]);
    rec_arr_close();
    rec_close();
}
