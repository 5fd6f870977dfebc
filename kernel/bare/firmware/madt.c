/* The MADT's processor entries (ACPI spec 6.5 §5.2.12, Table 5.43: the
 * header, then the local APIC address and flags at 36 and 40, then entries
 * of type, length, body from offset 44). */
#include "madt.h"
#include "lib/kstring.h"

enum { MADT_LAPIC = 0, MADT_LAPIC_OVERRIDE = 5, MADT_X2APIC = 9 };

static void add_cpu(struct madt_info *m, uint32_t apic_id, uint32_t uid, uint32_t flags, bool x2)
{
    for (unsigned i = 0; i < m->ncpus; i++)
        if (m->cpus[i].apic_id == apic_id)
            return; /* listed twice (a type 0 and a type 9 entry): once is enough */
    if (m->ncpus == MADT_MAX_CPUS) {
        m->dropped++;
        return;
    }
    struct madt_cpu *c = &m->cpus[m->ncpus++];
    c->apic_id = apic_id;
    c->uid = uid;
    c->enabled = flags & 1;
    c->online_capable = !c->enabled && (flags & 2);
    c->x2apic = x2;
}

void madt_parse(const uint8_t *madt, struct madt_info *out, struct acpi_info *info)
{
    kmemset(out, 0, sizeof *out);
    uint32_t len = acpi_u32(madt + 4);
    if (len < 44) {
        acpi_problem(info, "MADT of %u bytes: shorter than its 44-byte start; ignored", len);
        return;
    }
    out->present = true;
    out->lapic_addr = acpi_u32(madt + 36);
    out->pcat_compat = acpi_u32(madt + 40) & 1;
    for (uint32_t off = 44; off + 2 <= len;) {
        const uint8_t *e = madt + off;
        uint8_t type = e[0], elen = e[1];
        if (elen < 2 || elen > len - off) {
            acpi_problem(info, "MADT entry at offset %u: length %u %s; the rest of the MADT ignored",
                         off, elen, elen < 2 ? "is under 2" : "reaches past the table's end");
            return;
        }
        if (type == MADT_LAPIC && elen >= 8)          /* §5.2.12.2, Table 5.45 */
            add_cpu(out, e[3], e[2], acpi_u32(e + 4), false);
        else if (type == MADT_X2APIC && elen >= 16)   /* §5.2.12.12, Table 5.59 */
            add_cpu(out, acpi_u32(e + 4), acpi_u32(e + 12), acpi_u32(e + 8), true);
        else if (type == MADT_LAPIC_OVERRIDE && elen >= 12) /* §5.2.12.8 */
            out->lapic_addr = acpi_u64(e + 4);
        off += elen;
    }
}

unsigned madt_usable(const struct madt_info *m)
{
    unsigned n = 0;
    for (unsigned i = 0; i < m->ncpus; i++)
        n += m->cpus[i].enabled || m->cpus[i].online_capable;
    return n;
}
