/* The core-to-core latency matrix: a table for people (median round trip
 * in TSC ticks, ping row against pong column; the diagonal empty), in
 * blocks of C2C_COLUMNS columns so every line fits 80 columns whatever the
 * number of processors, and one "c2c" record with every cell. */
#include "lib/div64.h"
#include "record/log.h"
#include "smp/c2c.h"
#include "report/write.h"

static const char *const cell_names[] = {
    [C2C_EMPTY] = "empty", [C2C_MEASURED] = "measured", [C2C_TIMEOUT] = "timeout", [C2C_LOST] = "lost",
};

#define C2C_COLUMNS 10 /* 6 + 10 x 7 = 76 characters */

/* Columns first..first+C2C_COLUMNS-1 of every row. */
static void block(const struct c2c_matrix *m, unsigned first)
{
    unsigned end = first + C2C_COLUMNS < m->n ? first + C2C_COLUMNS : m->n;
    if (m->n > C2C_COLUMNS)
        log_text("  columns %u-%u of %u:\n", first + 1, end, m->n);
    log_text("  apic");
    for (unsigned j = first; j < end; j++)
        log_text(" %6u", (unsigned)m->apic_id[j]);
    log_text("\n");
    for (unsigned i = 0; i < m->n; i++) {
        log_text("  %4u", (unsigned)m->apic_id[i]);
        for (unsigned j = first; j < end; j++) {
            enum c2c_cell c = m->cell[i][j];
            uint64_t v = m->median[i][j];
            if (c == C2C_MEASURED && v <= 999999)
                log_text(" %6u", (unsigned)v);
            else if (c == C2C_MEASURED) /* millions: TCG's scheduling, or a very slow pair */
                log_text(" %5uM", (unsigned)u64_divmod(v, 1000000, 0));
            else
                log_text(" %6s", c == C2C_EMPTY ? "-" : c == C2C_TIMEOUT ? "t/o" : "lost");
        }
        log_text("\n");
    }
}

static void table(const struct c2c_matrix *m)
{
    log_text("\n== smp/c2c/%s: median round trip, TSC ticks (row pings, column answers) ==\n",
             m->variant);
    for (unsigned first = 0; first < m->n; first += C2C_COLUMNS)
        block(m, first);
}

/* One matrix of values (ticks, or ns where the TSC rate is known). */
static void values(const char *key, const struct c2c_matrix *m, const uint64_t (*v)[C2C_MAX], bool ns)
{
    rec_arr_open(key);
    for (unsigned i = 0; i < m->n; i++) {
        rec_arr_open(NULL);
        for (unsigned j = 0; j < m->n; j++) {
            if (m->cell[i][j] != C2C_MEASURED || (ns && !m->hz))
                rec_null(NULL);
            else if (ns)
                rec_u64(NULL, u64_divmod(v[i][j] * 1000000000ull, m->hz, 0));
            else
                rec_u64(NULL, v[i][j]);
        }
        rec_arr_close();
    }
    rec_arr_close();
}

void write_c2c(const struct c2c_matrix *m, bool trusted)
{
    table(m);
    if (!trusted)
        log_text("  (timings untrusted here: see the trust record)\n");
    rec_open("c2c");
    rec_str("variant", m->variant);
    rec_u64("rounds", C2C_ROUNDS);
    rec_bool("trusted", trusted);
    rec_arr_open("apic_ids");
    for (unsigned i = 0; i < m->n; i++)
        rec_u64(NULL, m->apic_id[i]);
    rec_arr_close();
    rec_arr_open("cells");
    for (unsigned i = 0; i < m->n; i++) {
        rec_arr_open(NULL);
        for (unsigned j = 0; j < m->n; j++)
            rec_str(NULL, cell_names[m->cell[i][j]]);
        rec_arr_close();
    }
    rec_arr_close();
    values("min_ticks", m, m->min, false);
    values("median_ticks", m, m->median, false);
    values("min_ns", m, m->min, true);
    values("median_ns", m, m->median, true);
    rec_arr_open("lost");
    for (unsigned i = 0; i < m->lost; i++)
        rec_u64(NULL, m->lost_apic[i]);
    rec_arr_close();
    rec_close();
}
