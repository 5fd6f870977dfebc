/* SMBIOS entry point and structure table, from bytes (smbios.h). Offsets
 * and encodings from DMTF DSP0134 3.x: §5.2.1 (2.1 entry point), §5.2.2
 * (3.0 entry point), §6.1.2 (structure header), §6.1.3 (text strings),
 * §7.1 (type 0, BIOS), §7.2 (type 1, system), §7.3 (type 2, baseboard),
 * §7.18 (type 17, memory device). */
#include "smbios.h"
#include "lib/kstring.h"

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

static uint8_t checksum(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    while (n--)
        s = (uint8_t)(s + *p++);
    return s;
}

static bool anchor(const uint8_t *p, const char *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (uint8_t)a[i])
            return false;
    return true;
}

size_t smbios_entry_len(const uint8_t *ep, size_t avail)
{
    if (avail >= 0x18 && anchor(ep, "_SM3_", 5))
        return ep[6];
    if (avail >= 0x1F && anchor(ep, "_SM_", 4))
        return ep[5];
    return 0;
}

static const char *entry3(const uint8_t *ep, size_t len, struct platform_smbios *out)
{
    if (ep[6] < 0x18 || ep[6] > len)
        return "_SM3_ entry point: its length byte is below 0x18 or past the bytes given";
    if (checksum(ep, ep[6]))
        return "_SM3_ entry point: bad checksum";
    out->major = ep[7];
    out->minor = ep[8];
    out->table_len = le32(ep + 0x0C); /* the table's maximum size */
    out->table_addr = le64(ep + 0x10);
    return NULL;
}

static const char *entry2(const uint8_t *ep, size_t len, struct platform_smbios *out)
{
    /* 0x1F per §5.2.1; some 2.1 firmware says 0x1E (the spec's own note). */
    if (ep[5] < 0x1E || ep[5] > len)
        return "_SM_ entry point: its length byte is below 0x1E or past the bytes given";
    if (checksum(ep, ep[5]))
        return "_SM_ entry point: bad checksum";
    if (!anchor(ep + 0x10, "_DMI_", 5) || checksum(ep + 0x10, 15))
        return "_SM_ entry point: the intermediate _DMI_ anchor or its checksum is wrong";
    out->major = ep[6];
    out->minor = ep[7];
    out->table_len = le16(ep + 0x16);
    out->table_addr = le32(ep + 0x18);
    return NULL;
}

const char *smbios_entry_parse(const uint8_t *ep, size_t len, struct platform_smbios *out)
{
    const char *why;
    if (len >= 0x18 && anchor(ep, "_SM3_", 5))
        why = entry3(ep, len, out);
    else if (len >= 0x1F && anchor(ep, "_SM_", 4))
        why = entry2(ep, len, out);
    else
        return "no _SM_ or _SM3_ anchor";
    if (!why && (out->table_len < 4 || !out->table_addr))
        why = "the entry point gives no structure table (length below 4 or address 0)";
    return why;
}

/* Index just past the strings of the structure whose strings start at s:
 * they end with two NULs (a structure without strings has just those). 0
 * when they run past the table. */
static size_t strings_end(const uint8_t *t, size_t s, size_t len)
{
    for (size_t i = s; i + 1 < len; i++)
        if (t[i] == 0 && t[i + 1] == 0)
            return i + 2;
    return 0;
}

struct structure {
    uint8_t type, len;             /* header: type, length of the formatted area */
    const uint8_t *f;              /* formatted area (f[0] is the type) */
    const uint8_t *str;            /* strings, str[0..nstr) including the final NULs */
    size_t nstr;
};

/* String number n (1-based; 0: none) into dst, printable ASCII only. */
static void string_of(const struct structure *s, uint8_t n, char *dst)
{
    dst[0] = '\0';
    if (n == 0)
        return;
    size_t i = 0;
    for (uint8_t k = 1; k < n && i < s->nstr; k++) { /* skip to string n */
        while (i < s->nstr && s->str[i])
            i++;
        i++;
    }
    unsigned o = 0;
    for (; i < s->nstr && s->str[i] && o + 1 < SMBIOS_STR; i++)
        dst[o++] = s->str[i] >= 0x20 && s->str[i] < 0x7f ? (char)s->str[i] : '?';
    dst[o] = '\0';
}

/* A string field at offset off, when the formatted area has it. */
static void field_string(const struct structure *s, uint8_t off, char *dst)
{
    dst[0] = '\0';
    if (off < s->len)
        string_of(s, s->f[off], dst);
}

static uint32_t field16(const struct structure *s, uint8_t off)
{
    return (size_t)off + 2 <= s->len ? le16(s->f + off) : 0;
}

static uint32_t field32(const struct structure *s, uint8_t off)
{
    return (size_t)off + 4 <= s->len ? le32(s->f + off) : 0;
}

/* §7.18.5: 0x7FFF means "see Extended Size" (MiB); bit 15 set: KiB units. */
static void memdev_size(const struct structure *s, struct smbios_memdev *m)
{
    uint32_t size = field16(s, 0x0C);
    m->size_known = s->len >= 0x0E && size != 0xFFFF;
    m->installed = size != 0;
    if (!m->size_known || !m->installed)
        return;
    if (size == 0x7FFF)
        m->size_kib = (uint64_t)(field32(s, 0x1C) & 0x7FFFFFFFu) * 1024u;
    else if (size & 0x8000u)
        m->size_kib = size & 0x7FFFu;
    else
        m->size_kib = (uint64_t)size * 1024u;
}

/* A speed WORD, 0xFFFF meaning "see the extended DWORD" (SMBIOS 3.3). */
static uint32_t speed(const struct structure *s, uint8_t word, uint8_t ext)
{
    uint32_t v = field16(s, word);
    return v == 0xFFFF ? field32(s, ext) & 0x7FFFFFFFu : v;
}

static void memdev(const struct structure *s, struct platform_smbios *out)
{
    out->mem_total++;
    if (out->nmem >= SMBIOS_MEMDEV_MAX)
        return;
    struct smbios_memdev *m = &out->mem[out->nmem++];
    field_string(s, 0x10, m->locator);
    field_string(s, 0x11, m->bank);
    m->type = s->len > 0x12 ? s->f[0x12] : 0;
    memdev_size(s, m);
    m->speed_mts = speed(s, 0x15, 0x54);
    m->configured_mts = speed(s, 0x20, 0x58);
}

static void take(const struct structure *s, struct platform_smbios *out)
{
    if (s->type == 0 && !out->have_bios) {
        out->have_bios = true;
        field_string(s, 0x04, out->bios_vendor);
        field_string(s, 0x05, out->bios_version);
        field_string(s, 0x08, out->bios_date);
    } else if (s->type == 1 && !out->have_system) {
        out->have_system = true;
        field_string(s, 0x04, out->sys_manufacturer);
        field_string(s, 0x05, out->sys_product);
        field_string(s, 0x06, out->sys_version);
    } else if (s->type == 2 && !out->have_board) {
        out->have_board = true;
        field_string(s, 0x04, out->board_manufacturer);
        field_string(s, 0x05, out->board_product);
        field_string(s, 0x06, out->board_version);
    } else if (s->type == 17) {
        memdev(s, out);
    }
}

void smbios_table_parse(const uint8_t *t, size_t len, struct platform_smbios *out)
{
    size_t off = 0;
    while (off + 4 <= len) {
        struct structure s = { t[off], t[off + 1], t + off, NULL, 0 };
        if (s.len < 4) {
            out->problem = "a structure's length is below its 4-byte header; the walk stopped there";
            return;
        }
        if (s.len > len - off) {
            out->problem = "a structure's formatted area runs past the table; the walk stopped there";
            return;
        }
        size_t end = strings_end(t, off + s.len, len);
        if (!end) {
            out->problem = "a structure's strings are not ended by two NULs inside the table; "
                           "the walk stopped there";
            return;
        }
        s.str = t + off + s.len;
        s.nstr = end - (off + s.len);
        out->structures++;
        take(&s, out);
        if (s.type == 127) /* end of table, §7.45 */
            return;
        off = end;
    }
}
