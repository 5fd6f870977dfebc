/* smp/sibling: a body alone and beside a busy SMT sibling (or the skip). */
#include "lib/div64.h"
#include "report/log.h"
#include "smp/sibling.h"
#include "report/write.h"

void write_sibling(const struct sibling_result *r, bool trusted)
{
    if (r->skip) {
        write_skip("smp/sibling", r->skip);
        return;
    }
    uint64_t x100 = r->alone ? u64_divmod(r->loaded * 100, r->alone, 0) : 0;
    log_text("\n== smp/sibling: %u dependent ADDs on APIC ID %u, its sibling %u idle / busy ==\n",
             SIBLING_ADDS, (unsigned)r->measured_apic, (unsigned)r->sibling_apic);
    log_text("  alone %llu ticks, beside the busy sibling %llu ticks: x%u.%02u%s\n",
             (unsigned long long)r->alone, (unsigned long long)r->loaded, (unsigned)(x100 / 100),
             (unsigned)(x100 % 100), trusted ? "" : " (timings untrusted here)");
    rec_open("sibling");
    rec_str("name", "smp/sibling");
    rec_u64("apic_id", r->measured_apic);
    rec_u64("sibling_apic_id", r->sibling_apic);
    rec_u64("adds", SIBLING_ADDS);
    rec_u64("alone_ticks", r->alone);
    rec_u64("loaded_ticks", r->loaded);
    rec_fixed("slowdown", (int64_t)x100, 2);
    rec_bool("trusted", trusted);
    rec_close();
}
