/* ACPI for the platform record: what was found, in the portable shape of
 * platform.h, and every problem met on the way as a warning note. */
#include "acpi_bare.h"
#include "lib/kstring.h"
#include "platform/platform.h"
#include "record/log.h"

static void copy_madt(const struct madt_info *m, struct platform_acpi_info *out)
{
    out->madt = m->present;
    for (unsigned i = 0; i < m->ncpus && out->ncpus < PLATFORM_APIC_CPUS; i++) {
        struct platform_apic_cpu *c = &out->cpus[out->ncpus++];
        c->apic_id = m->cpus[i].apic_id;
        c->enabled = m->cpus[i].enabled;
        c->online_capable = m->cpus[i].online_capable;
        c->x2apic = m->cpus[i].x2apic;
    }
    if (m->dropped)
        log_note("warn", "acpi", "the MADT lists %u more processors than the %d kept; they are not used",
                 m->dropped, MADT_MAX_CPUS);
}

void acpi_describe(struct platform_acpi_info *out)
{
    const struct acpi_info *a = acpi_get();
    for (unsigned i = 0; i < a->nproblems; i++)
        log_note("warn", "acpi", "%s", a->problems[i]);
    if (!a->found)
        return;
    out->oem_id = a->oem_id;
    out->where = a->where;
    out->revision = a->revision;
    out->xsdt = a->xsdt;
    for (unsigned i = 0; i < a->ntables && i < PLATFORM_ACPI_TABLES; i++)
        kmemcpy(out->sigs[out->ntables++], a->tables[i].sig, 5);
    copy_madt(acpi_madt(), out);
}
