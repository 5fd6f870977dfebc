/* The CPUID decoders on any leaf values, through the path the kernel takes:
 * cpu_probe_with() asks a simulated CPU (tests/unit/cpu_dumps/dump.h, the
 * simulator of the recorded dumps) that answers from the input, records
 * every leaf raw and decodes them; the raw leaves must decode again to the
 * same result (that is how a log is read back on the host); the driver
 * choice and binding, and the cpu record and section of the log, follow.
 *
 * Input: one byte of EFLAGS/FPU behaviour (bit 0 AC toggles, bit 1 ID
 * toggles, bit 2 x87 present), then records of six little-endian 32-bit
 * words: leaf, subleaf, EAX, EBX, ECX, EDX (tests/fuzz/corpus/cpuid/ holds
 * the recorded dumps in this form). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "capture.h"
#include "cpu/cpu.h"
#include "uarch/uarch.h"
#include "cpu_dumps/dump.h"
#include "platform/platform.h"
#include "pmu/pmu.h"
#include "record/log.h"
#include "report/write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LEAVES_MAX 512
static struct dump_leaf leaves[LEAVES_MAX];
static struct cpu_info info, again;

static void same_decoding(const struct cpu_info *a, const struct cpu_info *b)
{
    if (strcmp(a->name, b->name) || strcmp(a->brand, b->brand) ||
        strcmp(a->vendor_string, b->vendor_string) || strcmp(a->hv_vendor, b->hv_vendor) ||
        a->vendor != b->vendor || a->family != b->family || a->model != b->model ||
        a->stepping != b->stepping || a->max_leaf != b->max_leaf ||
        a->max_ext_leaf != b->max_ext_leaf || a->max_hv_leaf != b->max_hv_leaf ||
        a->has_fpu != b->has_fpu || a->ncaches != b->ncaches ||
        memcmp(a->features, b->features, sizeof a->features) ||
        memcmp(a->caches, b->caches, sizeof a->caches) ||
        memcmp(&a->perfmon, &b->perfmon, sizeof a->perfmon) ||
        memcmp(&a->clock, &b->clock, sizeof a->clock))
        abort();
}

static void well_formed(const struct cpu_info *c)
{
    if (c->nraw > CPU_RAW_MAX || c->ncaches > CPU_CACHES_MAX || c->vendor_string[12] ||
        c->hv_vendor[12] || strnlen(c->brand, sizeof c->brand) == sizeof c->brand ||
        strnlen(c->name, sizeof c->name) == sizeof c->name || !c->name[0])
        abort();
    for (unsigned i = 0; i < c->ncaches; i++)
        if (c->caches[i].kind < CACHE_DATA || c->caches[i].kind > CACHE_TLB_UNIFIED ||
            c->caches[i].size == 0)
            abort();
}

/* The length of the well-formed UTF-8 sequence of 2 to 4 bytes at s
 * (RFC 3629 section 4: no overlong forms, no surrogates, nothing above
 * U+10FFFF), or 0. */
static unsigned utf8_sequence(const unsigned char *s, const unsigned char *end)
{
    unsigned n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (!n || s[0] > 0xf4 || end - s < (long)n)
        return 0;
    for (unsigned i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) || (s[0] == 0xf0 && s[1] < 0x90) ||
        (s[0] == 0xf4 && s[1] > 0x8f))
        return 0;
    return n;
}

/* Every JSON line is one object of printable text: no control character or
 * DEL, and anything beyond ASCII well-formed UTF-8 (the JSON writer passes
 * text through as UTF-8 and puts U+FFFD where a CPU's string is not). */
static void json_lines_printable(const char *s)
{
    while (*s) {
        const char *nl = strchr(s, '\n');
        if (!nl || *s != '{' || nl[-1] != '}')
            abort();
        const unsigned char *p = (const unsigned char *)s, *end = (const unsigned char *)nl;
        while (p < end) {
            if (*p < 0x20 || *p == 0x7f)
                abort();
            if (*p < 0x80) {
                p++;
                continue;
            }
            unsigned n = utf8_sequence(p, end);
            if (!n)
                abort();
            p += n;
        }
        s = nl + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    size_t n = (size - 1) / sizeof leaves[0];
    if (n > LEAVES_MAX)
        n = LEAVES_MAX;
    memcpy(leaves, data + 1, n * sizeof leaves[0]);
    struct cpu_dump dump = { "fuzz input", leaves, (unsigned)n };

    sim_start(&dump);
    sim.ac_toggles = flags & 1;
    sim.id_toggles = (flags >> 1) & 1;
    sim.fpu = (flags >> 2) & 1;
    cpu_probe_with(&info, &sim_ops);
    well_formed(&info);
    if (info.generation == CPU_GEN_CPUID) {
        if (info.nraw != sim.reads && info.nraw < CPU_RAW_MAX)
            abort();
        /* No read beyond a range's maximum (without an extended range the
         * CPU answers 0x80000000 with basic-leaf data, which may look like
         * one: only the real range is checked). */
        if (sim.violations && sim_find(0x80000000, 0))
            abort();
        cpu_decode_raw(&again, info.raw, info.nraw);
        well_formed(&again);
        same_decoding(&info, &again);
    }

    const char *why = NULL;
    enum pmu_kind kind = pmu_select(&info, &why);
    static struct pmu_driver drv;
    memset(&drv, 0, sizeof drv);
    pmu_bind(&drv, kind, &info, platform->msr);
    if (!why || uarch_name(uarch_of(&info)) == NULL)
        abort();

    capture_reset();
    log_reset();
    write_cpu(&info, NULL, NULL);
    json_lines_printable(capture_machine());
    return 0;
}
