/* The validator of benchmark files (module_format.h). Every byte comes from
 * outside (a boot loader module, a serial line): each length is checked
 * against what remains before it is used, nothing is trusted, the first
 * problem is the reason given. */
#include "module.h"
#include "cpu/cpu.h"
#include "uarch/uarch.h"
#include "lib/crc32.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "harness/measure.h"

struct reader {
    const uint8_t *p;
    size_t left;
};

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

static const uint8_t *take(struct reader *r, size_t n)
{
    if (n > r->left)
        return NULL;
    const uint8_t *at = r->p;
    r->p += n;
    r->left -= n;
    return at;
}

static bool name_char(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '/' || c == '_' || c == '-' || c == '.' || c == '+';
}

/* A key field: NUL-padded text of at most MODULE_KEY_LEN - 1 characters. */
static bool key_text(const uint8_t *p, char *out)
{
    size_t n = kstrnlen((const char *)p, MODULE_KEY_LEN);
    if (n == 0 || n == MODULE_KEY_LEN)
        return false;
    for (size_t i = n; i < MODULE_KEY_LEN; i++)
        if (p[i])
            return false;
    kmemcpy(out, p, n);
    out[n] = '\0';
    return true;
}

static int feature_named(const char *name)
{
    for (unsigned w = 0; w < FW_COUNT; w++)
        for (unsigned bit = 0; bit < 32; bit++) {
            const char *n = cpu_feature_name(w, bit);
            if (n && kstrcmp(n, name) == 0)
                return CPU_FEATURE(w, bit);
        }
    return FEAT_NONE;
}

/* "486, P5, P6, ...": the names a file may use, from the registry. */
static void uarch_names(char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (const struct uarch *u = uarch_begin(); u < uarch_end() && at < size; u++)
        at += (size_t)ksnprintf(buf + at, size - at, "%s%s", at ? ", " : "", u->name);
}

struct header {
    uint32_t total, name_len, desc_len, nneeds, nexpect, init_len, body_len, flags;
};

static const char *check_header(const uint8_t *h, size_t len, struct header *hd,
                                struct module_view *m, char *why, size_t size)
{
    m->version = le16(h + 4);
    hd->total = le32(h + 8);
    m->mode = h[12];
    hd->name_len = h[13];
    hd->desc_len = le16(h + 14);
    hd->nneeds = h[16];
    hd->nexpect = h[17];
    hd->init_len = le16(h + 18);
    hd->body_len = le16(h + 20);
    m->unroll = le16(h + 22);
    m->loops = le32(h + 24);
    m->samples = le16(h + 28);
    m->copies = h[30];
    hd->flags = h[31];
    if (kmemcmp(h, MODULE_MAGIC, 4) != 0)
        ksnprintf(why, size, "not a benchmark file (magic is not \"CKBM\")");
    else if (m->version != MODULE_VERSION)
        ksnprintf(why, size, "version %u; this kernel reads version %u", m->version, MODULE_VERSION);
    else if (le16(h + 6) != MODULE_HEADER_LEN)
        ksnprintf(why, size, "header length %u; version 1 has %u", (unsigned)le16(h + 6), MODULE_HEADER_LEN);
    else if (hd->total != len)
        ksnprintf(why, size, "total length field says %u bytes; the file has %u",
                  (unsigned)hd->total, (unsigned)len);
    else if (crc32_update(0, h, len - 4) != le32(h + len - 4))
        ksnprintf(why, size, "CRC-32 0x%08x does not match the stored 0x%08x",
                  (unsigned)crc32_update(0, h, len - 4), (unsigned)le32(h + len - 4));
    else if (m->mode != 32 && m->mode != 64)
        ksnprintf(why, size, "mode %u; only 32 or 64", m->mode);
    else if (hd->name_len == 0 || hd->name_len > MODULE_NAME_MAX)
        ksnprintf(why, size, "name length %u; 1..%u allowed", (unsigned)hd->name_len, MODULE_NAME_MAX);
    else if (hd->desc_len > MODULE_DESC_MAX)
        ksnprintf(why, size, "description length %u; at most %u", (unsigned)hd->desc_len, MODULE_DESC_MAX);
    else if (hd->nneeds > BENCH_NEEDS_MAX)
        ksnprintf(why, size, "%u needs; at most %u", (unsigned)hd->nneeds, BENCH_NEEDS_MAX);
    else if (hd->nexpect > BENCH_EXPECT_MAX)
        ksnprintf(why, size, "%u expectations; at most %u", (unsigned)hd->nexpect, BENCH_EXPECT_MAX);
    else if (hd->init_len > MODULE_INIT_MAX)
        ksnprintf(why, size, "init code of %u bytes; at most %u", (unsigned)hd->init_len, MODULE_INIT_MAX);
    else if (hd->body_len > MODULE_BODY_MAX)
        ksnprintf(why, size, "body of %u bytes; at most %u", (unsigned)hd->body_len, MODULE_BODY_MAX);
    else if (m->unroll > MODULE_UNROLL_MAX)
        ksnprintf(why, size, "unroll hint %u; 0..%u allowed", (unsigned)m->unroll, MODULE_UNROLL_MAX);
    else if (m->loops > MODULE_LOOPS_MAX)
        ksnprintf(why, size, "loops hint %u; 0..%u allowed", (unsigned)m->loops, MODULE_LOOPS_MAX);
    else if (m->samples > MEASURE_SAMPLES_MAX)
        ksnprintf(why, size, "samples hint %u; 0..%u allowed", (unsigned)m->samples, MEASURE_SAMPLES_MAX);
    else if (m->copies > hd->body_len)
        ksnprintf(why, size, "copies %u in a body of %u bytes; each instruction takes a byte or more",
                  (unsigned)m->copies, (unsigned)hd->body_len);
    else if (hd->flags)
        ksnprintf(why, size, "flags 0x%x; version 1 defines none", (unsigned)hd->flags);
    else
        return NULL;
    return why;
}

static const char *check_strings(struct reader *r, const struct header *hd, struct module_view *m,
                                 char *why, size_t size)
{
    const uint8_t *name = take(r, hd->name_len), *desc = take(r, hd->desc_len);
    if (!name || !desc)
        return ksnprintf(why, size, "name and description run past the end of the file"), why;
    for (uint32_t i = 0; i < hd->name_len; i++)
        if (!name_char(name[i]))
            return ksnprintf(why, size, "name byte %u is 0x%02x; names use A-Z a-z 0-9 / _ - . +",
                             (unsigned)i, name[i]), why;
    for (uint32_t i = 0; i < hd->desc_len; i++)
        if (desc[i] < 0x20 || desc[i] > 0x7e)
            return ksnprintf(why, size, "description byte %u is 0x%02x; printable ASCII only",
                             (unsigned)i, desc[i]), why;
    kmemcpy(m->name, name, hd->name_len);
    m->name[hd->name_len] = '\0';
    kmemcpy(m->desc, desc, hd->desc_len);
    m->desc[hd->desc_len] = '\0';
    return NULL;
}

static const char *check_needs(struct reader *r, const struct header *hd, struct module_view *m,
                               char *why, size_t size)
{
    char key[MODULE_KEY_LEN];
    for (uint32_t i = 0; i < hd->nneeds; i++) {
        const uint8_t *p = take(r, MODULE_KEY_LEN);
        if (!p)
            return ksnprintf(why, size, "needs run past the end of the file"), why;
        if (!key_text(p, key))
            return ksnprintf(why, size, "need %u is not a NUL-padded name", (unsigned)i), why;
        if ((m->needs[i] = feature_named(key)) == FEAT_NONE)
            return ksnprintf(why, size, "need '%s' is no CPUID feature this kernel knows", key), why;
    }
    for (uint32_t i = 0; i < hd->nexpect; i++) {
        const uint8_t *p = take(r, MODULE_EXPECT_LEN);
        if (!p)
            return ksnprintf(why, size, "expectations run past the end of the file"), why;
        if (!key_text(p, key))
            return ksnprintf(why, size, "expectation %u has no NUL-padded key", (unsigned)i), why;
        int32_t x100 = (int32_t)le32(p + MODULE_KEY_LEN), tol = (int32_t)le32(p + MODULE_KEY_LEN + 4);
        if (!(m->expect[i].uarch = uarch_named(key))) {
            char names[120];
            uarch_names(names, sizeof names);
            return ksnprintf(why, size, "expectation key '%s' is no microarchitecture this kernel "
                             "knows (%s)", key, names), why;
        }
        if (x100 < 0 || x100 > 100000000 || tol < 0 || tol > 100000000)
            return ksnprintf(why, size, "expectation '%s' out of range (0..1000000 cycles)", key), why;
        m->expect[i].value = (struct uarch_expect){ m->name, x100, tol, "the benchmark file" };
    }
    return NULL;
}

const char *module_check(const uint8_t *data, size_t len, struct module_view *m, char *why,
                         size_t size)
{
    kmemset(m, 0, sizeof *m);
    if (!data || len < MODULE_HEADER_LEN + 4)
        return ksnprintf(why, size, "%u bytes: shorter than a header and a CRC (%u)", (unsigned)len,
                         MODULE_HEADER_LEN + 4), why;
    if (len > MODULE_FILE_MAX)
        return ksnprintf(why, size, "%u bytes: longer than any version 1 file (%u)", (unsigned)len,
                         (unsigned)MODULE_FILE_MAX), why;
    struct header hd;
    if (check_header(data, len, &hd, m, why, size))
        return why;
    struct reader r = { data + MODULE_HEADER_LEN, len - MODULE_HEADER_LEN - 4 };
    if (check_strings(&r, &hd, m, why, size) || check_needs(&r, &hd, m, why, size))
        return why;
    m->init = take(&r, hd.init_len);
    m->body = take(&r, hd.body_len);
    m->init_len = hd.init_len;
    m->body_len = hd.body_len;
    if (!m->init || !m->body)
        return ksnprintf(why, size, "init code and body run past the end of the file"), why;
    if (r.left)
        return ksnprintf(why, size, "%u bytes left over between the body and the CRC",
                         (unsigned)r.left), why;
    return NULL;
}
