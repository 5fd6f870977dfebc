/* AVX warm-up until the throughput settles (warmup.h says why). */
#include "warmup.h"

bool warmup_wanted(const int *needs, unsigned n)
{
    for (unsigned i = 0; i < n && needs[i] != FEAT_NONE; i++)
        switch ((enum cpu_feature)needs[i]) {
        case FEAT_AVX: case FEAT_AVX2: case FEAT_FMA: case FEAT_F16C:
        case FEAT_AVX512F: case FEAT_AVX512BW: case FEAT_AVX512VL: case FEAT_AVX512VBMI:
        case FEAT_AVX512VNNI: case FEAT_AVX512FP16: case FEAT_VAES: case FEAT_VPCLMULQDQ:
            return true;
        default:
            break;
        }
    return false;
}

void warmup_begin(struct warmup *w, uint64_t hz)
{
    *w = (struct warmup){ 0 };
    w->min_ticks = hz / 1000000u * WARMUP_MIN_US;
}

/* |a - b| <= 1 % of b. */
static bool within_1pct(uint64_t a, uint64_t b)
{
    uint64_t d = a > b ? a - b : b - a;
    return d * 100u <= b;
}

bool warmup_step(struct warmup *w, uint64_t t)
{
    bool close = w->runs > 0 && within_1pct(t, w->last);
    w->runs++;
    w->spent += t;
    w->last = t;
    w->agree = close ? w->agree + 1 : 0;
    if (w->spent >= w->min_ticks && w->agree >= WARMUP_AGREE) {
        w->settled = true;
        return true;
    }
    return w->runs >= WARMUP_MAX_RUNS;
}
