/* smp/sibling: a body alone and beside a busy SMT sibling, one `sibling`
 * record and one table line per antagonist (or the skip). */
#include "lib/div64.h"
#include "lib/fmt.h"
#include "record/log.h"
#include "smp/sibling.h"
#include "smp/sibling_kernels.h"
#include "report/write.h"

static void write_pair(const struct sibling_result *r, const struct sibling_pair *pr, bool trusted)
{
    const char *body = sibling_kernel_name(r->body), *anta = sibling_kernel_name(pr->antagonist);
    if (pr->skip) {
        static char why[160];
        ksnprintf(why, sizeof why, "%s beside %s: %s", body, anta, pr->skip);
        write_skip("smp/sibling", why);
        return;
    }
    uint64_t x100 = pr->alone ? u64_divmod(pr->loaded * 100, pr->alone, 0) : 0;
    log_text("  %-9s %9llu %9llu     x%u.%02u  %s\n", anta, (unsigned long long)pr->alone,
             (unsigned long long)pr->loaded, (unsigned)(x100 / 100), (unsigned)(x100 % 100),
             sibling_kernels[pr->antagonist].loads);
    rec_open("sibling");
    rec_str("name", "smp/sibling");
    rec_u64("apic_id", r->measured_apic);
    rec_u64("sibling_apic_id", r->sibling_apic);
    rec_str("body", body);
    rec_str("antagonist", anta);
    rec_u64("iterations", SIBLING_OPS);
    if (r->body == SIBK_ADD)
        rec_u64("adds", SIBLING_OPS); /* the record before body= existed */
    rec_u64("alone_ticks", pr->alone);
    rec_u64("loaded_ticks", pr->loaded);
    rec_fixed("slowdown", (int64_t)x100, 2);
    rec_bool("trusted", trusted);
    rec_close();
}

void write_sibling(const struct sibling_result *r, bool trusted)
{
    if (r->skip) {
        write_skip("smp/sibling", r->skip);
        return;
    }
    log_text("\n== smp/sibling: %u x %s on APIC ID %u, beside its sibling %u ==\n", SIBLING_OPS,
             sibling_kernel_name(r->body), (unsigned)r->measured_apic, (unsigned)r->sibling_apic);
    log_text("  ticks, min of %u%s\n  antagonist    alone    loaded  slowdown  what it loads\n", SIBLING_REPEATS,
             trusted ? "" : " (timings untrusted here)");
    for (unsigned i = 0; i < r->n; i++)
        write_pair(r, &r->pairs[i], trusted);
}
