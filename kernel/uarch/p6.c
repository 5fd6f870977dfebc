/* P6: the Pentium Pro, Pentium II and Pentium III, Intel family 6 models
 * 1 to 0Bh (AP-485; Pentium M Banias, model 9, included). Pentium M Dothan
 * (model 0Dh) and the Core line are not P6 timings. */
#include "uarch.h"

static const struct uarch_range p6_ranges[] = {
    UARCH_MODELS(INTEL, 0x6, 0x01, 0x0b),
};

static const struct uarch_expect p6_table[] = {
    /* ADD r,r: one micro-op, latency 1 (Agner Fog, instruction tables, PPro/PII/PIII). */
    EXPECT("calib/add_chain", 1.00, "measured on silicon, cited: Agner Fog, instruction tables, Pentium Pro/II/III"),
};

UARCH(p6, .name = "P6", .covers = "Intel family 6, models 1-0Bh: Pentium Pro, II, III");
