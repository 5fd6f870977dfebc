/* The result's cost per instruction (harness/per_insn.h), as the object
 * "per_instruction": {"n": N, "cycles": c / N, "ticks": t / N} of a body of
 * N copies of one instruction; nothing for any other body. */
#include "harness/per_insn.h"
#include "record/log.h"
#include "write.h"

void write_per_instruction(const struct result *r)
{
    struct per_instruction pi;
    if (!per_instruction_of(r, &pi))
        return;
    rec_obj_open("per_instruction");
    rec_u64("n", pi.n);
    if (pi.have_cycles)
        rec_fixed("cycles", pi.cycles_x100, 2);
    else
        rec_null("cycles");
    rec_fixed("ticks", pi.ticks_x100, 2);
    rec_obj_close();
}
