/* The RSDP, the root table (XSDT or RSDT) and the list of verified tables
 * (ACPI spec 6.5 §5.2.5-§5.2.8). Nothing here trusts a byte it has not
 * checked: lengths are bounded, every table's checksum is verified and a
 * pointer the memory map cannot serve is refused. */
#include <stdarg.h>
#include "acpi.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

uint8_t acpi_sum(const void *p, uint32_t n)
{
    const uint8_t *b = p;
    uint8_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s = (uint8_t)(s + b[i]);
    return s;
}

uint32_t acpi_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t acpi_u64(const uint8_t *p)
{
    return (uint64_t)acpi_u32(p) | (uint64_t)acpi_u32(p + 4) << 32;
}

void acpi_problem(struct acpi_info *info, const char *fmt, ...)
{
    if (info->nproblems >= ACPI_MAX_PROBLEMS)
        return;
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(info->problems[info->nproblems++], sizeof info->problems[0], fmt, ap);
    va_end(ap);
}

/* §5.2.5.3, Table 5.3: "RSD PTR ", checksum over the first 20 bytes; from
 * revision 2 the length at offset 20 and the extended checksum over it. */
const char *acpi_rsdp_check(const uint8_t *p, uint32_t avail)
{
    if (avail < ACPI_RSDP_V1_LEN || kmemcmp(p, "RSD PTR ", 8) != 0)
        return "no \"RSD PTR \" signature";
    if (acpi_sum(p, ACPI_RSDP_V1_LEN) != 0)
        return "the RSDP checksum (first 20 bytes) is wrong";
    if (p[15] < 2)
        return NULL;
    if (avail < ACPI_RSDP_V2_LEN)
        return "a revision 2 RSDP shorter than 36 bytes";
    uint32_t len = acpi_u32(p + 20);
    if (len < ACPI_RSDP_V2_LEN || len > avail)
        return "the RSDP length is not 36 bytes or more within what was given";
    if (acpi_sum(p, len) != 0)
        return "the RSDP extended checksum is wrong";
    return NULL;
}

/* §5.2.5.1: on 16-byte boundaries in [start, start + len). */
static uint64_t search(const struct acpi_mem *mem, uint32_t start, uint32_t len)
{
    for (uint32_t a = start; a + ACPI_RSDP_V1_LEN <= start + len; a += 16) {
        uint32_t avail = start + len - a;
        avail = avail < ACPI_RSDP_V2_LEN ? avail : ACPI_RSDP_V2_LEN;
        const uint8_t *p = mem->map(mem->ctx, a, avail);
        if (p && !acpi_rsdp_check(p, avail))
            return a;
    }
    return 0;
}

uint64_t acpi_rsdp_search(const struct acpi_mem *mem)
{
    const uint8_t *bda = mem->map(mem->ctx, 0x40e, 2);
    uint32_t ebda = bda ? (uint32_t)(bda[0] | bda[1] << 8) << 4 : 0;
    uint64_t found = ebda >= 0x80000 && ebda < 0xa0000 ? search(mem, ebda, 1024) : 0;
    return found ? found : search(mem, 0xe0000, 0x20000);
}

/* The table at addr, checked: mapped whole, length at least the header and
 * at most ACPI_TABLE_MAX_LEN, bytes summing to 0. NULL (and a problem
 * naming the table) otherwise. */
static const uint8_t *checked_table(const struct acpi_mem *mem, uint64_t addr, const char *what,
                                    struct acpi_info *info)
{
    const uint8_t *h = addr ? mem->map(mem->ctx, addr, ACPI_HEADER_LEN) : NULL;
    if (!h) {
        acpi_problem(info, "%s at 0x%llx: not in readable memory; ignored", what, (unsigned long long)addr);
        return NULL;
    }
    char sig[5];
    kmemcpy(sig, h, 4);
    sig[4] = '\0';
    for (int i = 0; i < 4; i++)
        if (sig[i] < 0x20 || sig[i] > 0x7e)
            sig[i] = '?';
    uint32_t len = acpi_u32(h + 4);
    if (len < ACPI_HEADER_LEN || len > ACPI_TABLE_MAX_LEN) {
        acpi_problem(info, "%s '%s' at 0x%llx: length %u is not %u..%u; ignored", what, sig,
                     (unsigned long long)addr, len, ACPI_HEADER_LEN, ACPI_TABLE_MAX_LEN);
        return NULL;
    }
    const uint8_t *t = mem->map(mem->ctx, addr, len);
    if (!t) {
        acpi_problem(info, "%s '%s' at 0x%llx: its %u bytes reach beyond readable memory; ignored",
                     what, sig, (unsigned long long)addr, len);
        return NULL;
    }
    if (acpi_sum(t, len) != 0) {
        acpi_problem(info, "%s '%s' at 0x%llx: checksum wrong (bytes sum to 0x%02x); ignored", what,
                     sig, (unsigned long long)addr, acpi_sum(t, len));
        return NULL;
    }
    return t;
}

static void add_tables(const struct acpi_mem *mem, const uint8_t *root, uint32_t entry_size,
                       struct acpi_info *info)
{
    uint32_t len = acpi_u32(root + 4);
    for (uint32_t off = ACPI_HEADER_LEN; off + entry_size <= len; off += entry_size) {
        uint64_t addr = entry_size == 8 ? acpi_u64(root + off) : acpi_u32(root + off);
        const uint8_t *t = checked_table(mem, addr, "table", info);
        if (!t)
            continue;
        if (info->ntables == ACPI_MAX_TABLES) {
            acpi_problem(info, "more than %d tables; the rest ignored", ACPI_MAX_TABLES);
            return;
        }
        struct acpi_table *e = &info->tables[info->ntables++];
        kmemcpy(e->sig, t, 4);
        e->sig[4] = '\0';
        e->addr = addr;
        e->length = acpi_u32(t + 4);
    }
}

static void copy_oem_id(char dst[7], const uint8_t *src)
{
    int n = 0;
    for (int i = 0; i < 6; i++)
        dst[i] = (src[i] >= 0x20 && src[i] <= 0x7e) ? (char)src[i] : '?';
    for (n = 6; n > 0 && dst[n - 1] == ' '; n--)
        ;
    dst[n] = '\0';
}

void acpi_parse(const struct acpi_mem *mem, const uint8_t *rsdp, uint32_t rsdp_len,
                const char *where, struct acpi_info *info)
{
    kmemset(info, 0, sizeof *info);
    kstrlcpy(info->where, where, sizeof info->where);
    const char *bad = acpi_rsdp_check(rsdp, rsdp_len);
    if (bad) {
        acpi_problem(info, "RSDP from %s: %s; ACPI not used", where, bad);
        return;
    }
    copy_oem_id(info->oem_id, rsdp + 9);
    info->revision = rsdp[15];
    const uint8_t *root = NULL;
    if (info->revision >= 2 && acpi_u64(rsdp + 24)) {
        root = checked_table(mem, acpi_u64(rsdp + 24), "XSDT", info);
        if (root && kmemcmp(root, "XSDT", 4) != 0) {
            acpi_problem(info, "the XSDT pointer leads to a table without the XSDT signature; ignored");
            root = NULL;
        }
        info->xsdt = root != NULL;
    }
    if (!root) {
        root = checked_table(mem, acpi_u32(rsdp + 16), "RSDT", info);
        if (root && kmemcmp(root, "RSDT", 4) != 0) {
            acpi_problem(info, "the RSDT pointer leads to a table without the RSDT signature; ignored");
            root = NULL;
        }
    }
    if (!root)
        return;
    info->found = true;
    add_tables(mem, root, info->xsdt ? 8 : 4, info);
}

const uint8_t *acpi_table_find(const struct acpi_info *info, const struct acpi_mem *mem,
                               const char sig[4])
{
    for (unsigned i = 0; i < info->ntables; i++)
        if (kmemcmp(info->tables[i].sig, sig, 4) == 0)
            return mem->map(mem->ctx, info->tables[i].addr, info->tables[i].length);
    return NULL;
}
