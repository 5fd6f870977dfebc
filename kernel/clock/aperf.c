/* The real clock (aperf.h): probe, samples around each timed run, and the
 * per-body cycles and effective frequency of one measurement.
 *
 * Why around each timed run and not around each sample (the 0/U/2U triple):
 * around a whole sample APERF/MPERF would only give a frequency, and cycles
 * would then be ticks x dAPERF/dMPERF, which assumes MPERF runs exactly at
 * the TSC rate. Around the U and the 2U run separately, the median of
 * APERF(2U) - APERF(U) counts the body's own core cycles, and the reads'
 * and the loop's cycles cancel like they do in time. The cost: four RDMSR
 * per sample, outside the timed region (the generated code takes t0/t1),
 * so they lengthen the run's wall time (about 100-200 cycles each on recent
 * Intel cores, uops.info "RDMSR"; not measured here: nothing on this
 * machine has a working APERF) but not a single sample's time. */
#include "aperf.h"
#include "stats/stats.h"

struct aperf_state aperf = { false, "not probed", 0 };

static const struct msr_ops *ops;
static uint64_t a0, m0;
static bool failed;                 /* a read failed during this measurement */
static uint64_t da[2][APERF_SAMPLES_MAX], dm[2][APERF_SAMPLES_MAX];
static uint64_t diff[APERF_SAMPLES_MAX], scratch[APERF_SAMPLES_MAX];

void aperf_probe(const struct cpu_info *c, const struct msr_ops *msr)
{
    aperf = (struct aperf_state){ false, NULL, 0 };
    ops = msr;
    const struct cpuid_regs *leaf6 = cpu_raw_find(c, 6, 0);
    uint64_t v;
    if (!cpu_has(c, FEAT_MSR))
        aperf.why = "no MSRs (CPUID.1:EDX.MSR clear)";
    else if (!leaf6)
        aperf.why = "no CPUID leaf 6: no IA32_APERF/IA32_MPERF";
    else if (!(leaf6->ecx & 1))
        aperf.why = "CPUID.06H:ECX[0] is clear: no IA32_APERF/IA32_MPERF";
    else if ((aperf.fault = msr_read(msr, MSR_IA32_MPERF, &v)) != 0)
        aperf.why = "IA32_MPERF (0xE7) faults or cannot be read here";
    else if ((aperf.fault = msr_read(msr, MSR_IA32_APERF, &v)) != 0)
        aperf.why = "IA32_APERF (0xE8) faults or cannot be read here";
    else {
        aperf.usable = true;
        aperf.why = "CPUID.06H:ECX[0] set, both MSRs read without a fault";
    }
}

void aperf_start(void)
{
    failed = false;
}

/* MPERF first and last: the APERF interval lies inside the MPERF one. */
void aperf_before(void)
{
    if (!aperf.usable || failed)
        return;
    if (msr_read(ops, MSR_IA32_MPERF, &m0) || msr_read(ops, MSR_IA32_APERF, &a0))
        failed = true;
}

void aperf_after(uint32_t s, unsigned variant)
{
    uint64_t a1, m1;
    if (!aperf.usable || failed || s >= APERF_SAMPLES_MAX || variant > 1)
        return;
    if (msr_read(ops, MSR_IA32_APERF, &a1) || msr_read(ops, MSR_IA32_MPERF, &m1)) {
        failed = true;
        return;
    }
    /* 64-bit counters; a wrap between two reads is one subtraction away. */
    da[variant][s] = a1 - a0;
    dm[variant][s] = m1 - m0;
}

/* Effective MHz over samples [from, to): TSC rate x sum dAPERF / sum dMPERF
 * (in ppm first, so nothing overflows 64 bits for any plausible run). */
static bool mhz_of(uint32_t from, uint32_t to, uint64_t tsc_hz, uint32_t *mhz)
{
    uint64_t sa = 0, sm = 0;
    for (uint32_t s = from; s < to; s++) {
        sa += da[0][s] + da[1][s];
        sm += dm[0][s] + dm[1][s];
    }
    if (!sm || !sa)
        return false;
    uint64_t ppm = sa * 1000000u / sm;
    *mhz = (uint32_t)(((tsc_hz / 1000u) * ppm / 1000000u + 500u) / 1000u);
    return true;
}

static void frequency(uint32_t n, uint64_t tsc_hz, struct aperf_result *out)
{
    if (!tsc_hz || !mhz_of(0, n, tsc_hz, &out->freq_mhz))
        return;
    out->freq_known = true;
    out->freq_lo_mhz = out->freq_hi_mhz = out->freq_mhz;
    uint32_t third = n / 3;
    if (third == 0)
        return; /* fewer than three samples: one frequency, nothing to compare */
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t f;
        if (!mhz_of(k * third, k == 2 ? n : (k + 1) * third, tsc_hz, &f))
            continue;
        if (f < out->freq_lo_mhz)
            out->freq_lo_mhz = f;
        if (f > out->freq_hi_mhz)
            out->freq_hi_mhz = f;
    }
    out->freq_changed = (uint64_t)(out->freq_hi_mhz - out->freq_lo_mhz) * 100u > out->freq_lo_mhz;
}

void aperf_finish(uint32_t n, uint64_t iters, uint64_t tsc_hz, struct aperf_result *out)
{
    *out = (struct aperf_result){ 0 };
    if (!aperf.usable) {
        out->why = aperf.why;
        return;
    }
    if (failed) {
        out->why = "an APERF/MPERF read failed during the samples";
        return;
    }
    if (n == 0 || iters == 0 || n > APERF_SAMPLES_MAX) {
        out->why = "no samples";
        return;
    }
    uint64_t sum_a = 0;
    for (uint32_t s = 0; s < n; s++) {
        diff[s] = da[1][s] > da[0][s] ? da[1][s] - da[0][s] : 0;
        sum_a += da[0][s];
    }
    if (!sum_a) {
        out->why = "IA32_APERF did not advance (an emulator that reads it as a constant?)";
        return;
    }
    struct stats st;
    stats_compute(diff, n, scratch, &st);
    out->have = true;
    out->cycles_x100 = (int64_t)stats_div_round(st.median_x100, iters);
    frequency(n, tsc_hz, out);
}

bool aperf_disagrees(int64_t aperf_x100, int64_t estimate_x100)
{
    int64_t d = aperf_x100 > estimate_x100 ? aperf_x100 - estimate_x100 : estimate_x100 - aperf_x100;
    int64_t base = aperf_x100 < 0 ? -aperf_x100 : aperf_x100;
    return d * 100 > base * 2;
}
