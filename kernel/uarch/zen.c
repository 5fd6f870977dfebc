/* Zen, every generation: AMD families 17h (Zen, Zen+, Zen 2), 19h (Zen 3,
 * Zen 4), 1Ah (Zen 5) and Hygon's family 18h (Dhyana, Zen) (AMD PPRs; Linux
 * arch/x86/kernel/cpu/amd.c and hygon.c).
 *
 * Only what holds on all of them: ADD r,r latency 1 and IMUL r64,r64
 * latency 3 (Agner Fog, instruction tables, AMD Zen sections; Zen 5:
 * InstLatX64 Ryzen 9 9950X [IX3]: L 1.00, 2.98). The other Zen 5 values of
 * [IX3] are no expectation here: Zen 1 to 5 differ (PDEP/PEXT are microcoded
 * on Zen 1 and 2). A generation's own cited values go into a file of its own,
 * which is looked up first; every generation also gets LLVM's model of it
 * (llvm_tables.c), after this file's cited values. */
#include "uarch.h"

#define AF "measured on silicon, cited: Agner Fog, instruction tables, AMD Zen; [IX3] Zen 5 (docs/references.md)"

static const struct uarch_range zen_ranges[] = {
    UARCH_MODELS(AMD, 0x17, 0x00, 0xff),
    UARCH_MODELS(AMD, 0x19, 0x00, 0xff),
    UARCH_MODELS(AMD, 0x1a, 0x00, 0xff),
    UARCH_MODELS(HYGON, 0x18, 0x00, 0xff),
};

static const struct uarch_expect zen_table[] = {
    EXPECT("calib/add_chain", 1.00, AF),
    EXPECT_TOL("lat64/add", 1.00, 0.05, AF),
    EXPECT("lat64/imul", 3.00, AF),
};

UARCH(zen, .name = "Zen", .covers = "AMD families 17h, 19h, 1Ah; Hygon family 18h");
