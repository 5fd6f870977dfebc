/* The ACPI part of the bare platform's lines and record: where the RSDP
 * came from, the OEM id, the tables, the MADT's processors. */
#include "record/log.h"
#include "report/write.h"

void write_acpi_text(const struct platform_acpi_info *a)
{
    if (!a->oem_id) {
        log_text("acpi: none usable (see the notes)\n");
        return;
    }
    log_text("acpi: OEM '%s', RSDP revision %u from %s, %s with %u tables", a->oem_id, a->revision,
             a->where, a->xsdt ? "XSDT" : "RSDT", a->ntables);
    for (unsigned i = 0; i < a->ntables; i++)
        log_text(" %s", a->sigs[i]);
    if (a->madt)
        log_text("; MADT: %u processors\n", a->ncpus);
    else
        log_text("; no MADT\n");
}

void write_acpi_fields(const struct platform_acpi_info *a)
{
    if (!a->oem_id) {
        rec_null("acpi_oem_id");
        rec_null("acpi");
        return;
    }
    rec_str("acpi_oem_id", a->oem_id);
    rec_obj_open("acpi");
    rec_str("rsdp", a->where);
    rec_u64("revision", a->revision);
    rec_str("root", a->xsdt ? "XSDT" : "RSDT");
    rec_arr_open("tables");
    for (unsigned i = 0; i < a->ntables; i++)
        rec_str(NULL, a->sigs[i]);
    rec_arr_close();
    if (a->madt) {
        rec_arr_open("madt_cpus");
        for (unsigned i = 0; i < a->ncpus; i++) {
            rec_obj_open(NULL);
            rec_u64("apic_id", a->cpus[i].apic_id);
            rec_bool("enabled", a->cpus[i].enabled);
            rec_bool("online_capable", a->cpus[i].online_capable);
            rec_bool("x2apic", a->cpus[i].x2apic);
            rec_obj_close();
        }
        rec_arr_close();
    } else {
        rec_null("madt_cpus");
    }
    rec_obj_close();
}
