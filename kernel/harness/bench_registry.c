#include "bench_registry.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform/platform.h"

/* Weak: a program without benchmarks has no such section (unit tests). */
extern const struct bench __start_ck_benches[] __attribute__((weak));
extern const struct bench __stop_ck_benches[] __attribute__((weak));

const struct bench *bench_begin(void) { return __start_ck_benches; }
const struct bench *bench_end(void) { return __stop_ck_benches; }
unsigned bench_count(void) { return (unsigned)(__stop_ck_benches - __start_ck_benches); }

const struct bench *bench_find(const char *name)
{
    for (const struct bench *b = bench_begin(); b < bench_end(); b++)
        if (kstrcmp(b->name, name) == 0)
            return b;
    return NULL;
}

/* A VEX-encoded need (AVX, AVX2, FMA, F16C): usable only where the OS
 * enabled XCR0.SSE and XCR0.AVX (SDM Vol. 1 §14.3 "Detection of Intel AVX
 * instructions"), whatever CPUID says; else it raises #UD. */
static bool needs_avx_state(const struct bench *b)
{
    for (int i = 0; i < BENCH_NEEDS_MAX && b->needs[i] != FEAT_NONE; i++)
        if (b->needs[i] == FEAT_AVX || b->needs[i] == FEAT_AVX2 || b->needs[i] == FEAT_FMA ||
            b->needs[i] == FEAT_F16C)
            return true;
    return false;
}

static const char *avx_state_unmet(const struct cpu_xstate *xs, char *buf, size_t size)
{
    if (cpu_xstate_avx_on(xs))
        return NULL;
    if (xs->known)
        ksnprintf(buf, size, "AVX needs XCR0.SSE|AVX enabled by the OS; XCR0 = 0x%llx",
                  (unsigned long long)xs->xcr0);
    else
        ksnprintf(buf, size, "AVX needs XCR0.SSE|AVX enabled by the OS; XCR0 unknown: %s",
                  xs->reason ? xs->reason : "not read");
    return buf;
}

/* A 64-bit body runs only where the platform can call long-mode code. */
static const char *long_mode_unmet(const struct bench *b, char *buf, size_t size)
{
    if (b->mode != 64 || (platform && platform->call64))
        return NULL;
    const char *why = platform && platform->long_mode_why ? platform->long_mode_why
                                                          : "this platform runs no 64-bit code";
    ksnprintf(buf, size, "64-bit body: %s", why);
    return buf;
}

/* An EVEX-encoded need (any AVX-512 feature): also XCR0's opmask, ZMM_Hi256
 * and Hi16_ZMM bits (5, 6, 7), which an OS enables all together or not at
 * all (SDM Vol. 1 §15.2 "Detection of AVX-512 Foundation instructions"). */
static bool needs_avx512_state(const struct bench *b)
{
    for (int i = 0; i < BENCH_NEEDS_MAX && b->needs[i] != FEAT_NONE; i++)
        if (b->needs[i] == FEAT_AVX512F || b->needs[i] == FEAT_AVX512BW || b->needs[i] == FEAT_AVX512VL ||
            b->needs[i] == FEAT_AVX512VBMI || b->needs[i] == FEAT_AVX512VNNI || b->needs[i] == FEAT_AVX512FP16)
            return true;
    return false;
}

static const char *avx512_state_unmet(const struct cpu_xstate *xs, char *buf, size_t size)
{
    if (cpu_xstate_avx_on(xs) && (xs->xcr0 & XCR0_AVX512) == XCR0_AVX512)
        return NULL;
    if (xs->known)
        ksnprintf(buf, size,
                  "AVX-512 needs XCR0.SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM (0xe6) enabled by the OS; XCR0 = 0x%llx",
                  (unsigned long long)xs->xcr0);
    else
        ksnprintf(buf, size, "AVX-512 needs XCR0 bits 1, 2, 5-7 enabled by the OS; XCR0 unknown: %s",
                  xs->reason ? xs->reason : "not read");
    return buf;
}

/* The first CPUID feature of needs (FEAT_NONE ends it) this CPU lacks. */
static const char *features_unmet(const int *needs, int max, char *buf, size_t size)
{
    for (int i = 0; i < max && needs[i] != FEAT_NONE; i++) {
        enum cpu_feature f = (enum cpu_feature)needs[i];
        if (!cpu_has(cpu, f)) {
            unsigned w = cpu_feature_word(f), bit = cpu_feature_bit(f);
            const char *name = cpu_feature_name(w, bit);
            ksnprintf(buf, size, "needs %s (CPUID %s bit %u), which this CPU lacks",
                      name ? name : "a feature", cpu_feature_word_name(w), bit);
            return buf;
        }
    }
    return NULL;
}

const char *bench_unmet(const struct bench *b, bool ring0, char *buf, size_t size)
{
    if (long_mode_unmet(b, buf, size))
        return buf;
    if (b->ring0 && !ring0) {
        ksnprintf(buf, size, "needs ring 0 (privileged instruction); this runner is in ring 3");
        return buf;
    }
    if (b->vendor != VENDOR_UNKNOWN && cpu->vendor != b->vendor) {
        ksnprintf(buf, size, "needs a %s CPU", cpu_vendor_name(b->vendor));
        return buf;
    }
    if (b->family && cpu->family != b->family) {
        ksnprintf(buf, size, "needs CPU family %u (this is family %u)", b->family, cpu->family);
        return buf;
    }
    if (needs_avx_state(b) && avx_state_unmet(cpu_xstate, buf, size))
        return buf;
    if (features_unmet(b->needs, BENCH_NEEDS_MAX, buf, size))
        return buf;
    /* After the CPUID features: a CPU without AVX-512 is told so first. */
    if (needs_avx512_state(b) && avx512_state_unmet(cpu_xstate, buf, size))
        return buf;
    return NULL;
}

unsigned smp_bench_running(const struct platform *p, const struct smp_info *s)
{
    unsigned n = 0;
    for (unsigned i = 0; p && p->smp_call && s && i < s->n; i++)
        n += s->cpus[i].state == SMP_BSP || s->cpus[i].state == SMP_STARTED;
    return n ? n : 1;
}

unsigned smp_bench_min_cpus(const struct smp_bench *b)
{
    return b->min_cpus < 2 ? 2 : b->min_cpus; /* between processors: two at least */
}

const char *smp_bench_unmet(const struct smp_bench *b, unsigned running, char *buf, size_t size)
{
    static const char *const counts[] = { "two", "two", "two", "three", "four" };
    unsigned need = smp_bench_min_cpus(b);
    if (running < need) {
        if (need < sizeof counts / sizeof counts[0])
            ksnprintf(buf, size, "needs %s running processors, %u here", counts[need], running);
        else
            ksnprintf(buf, size, "needs %u running processors, %u here", need, running);
        return buf;
    }
    return features_unmet(b->needs, BENCH_SMP_NEEDS_MAX, buf, size);
}
