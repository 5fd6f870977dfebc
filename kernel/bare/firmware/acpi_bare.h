/* ACPI on the bare platform: found once (multiboot2 tag or BIOS search),
 * then asked for by signature. */
#ifndef CK_BARE_ACPI_BARE_H
#define CK_BARE_ACPI_BARE_H
#include "acpi.h"
#include "madt.h"

/* What was found (found false: no usable ACPI; problems say why). */
const struct acpi_info *acpi_get(void);
/* The verified table with this signature ("APIC", "FACP", ...), or NULL. */
const uint8_t *acpi_find(const char sig[4]);
/* The RSDP's OEM id ("BOCHS", "ALASKA"), NULL without ACPI. */
const char *acpi_oem_id(void);
/* The MADT's processors (present false when there is no valid MADT). */
const struct madt_info *acpi_madt(void);

struct platform_acpi_info;
/* Fills the platform record's ACPI part; each problem becomes a warning note. */
void acpi_describe(struct platform_acpi_info *out);

#endif
