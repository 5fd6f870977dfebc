/* The 486: Intel family 4, and a 486 without CPUID (the probe tells it by
 * EFLAGS.AC alone and knows no vendor). */
#include "uarch.h"

static const struct uarch_range i486_ranges[] = {
    UARCH_MODELS(INTEL, 0x4, 0x00, 0xff),
    { .no_cpuid = true },
};

static const struct uarch_expect i486_table[] = {
    /* ADD reg,reg: 1 clock (Intel486 Microprocessor Family Programmer's
     * Reference Manual, instruction timings). */
    EXPECT("calib/add_chain", 1.00, "measured on silicon, cited: Intel486 Programmer's Reference Manual"),
};

UARCH(i486, .name = "486", .covers = "Intel family 4; any 486 without CPUID");
