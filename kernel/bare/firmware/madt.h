/* The MADT ("APIC", ACPI spec 6.5 §5.2.12): which processors the firmware
 * lists, by local APIC ID (type 0, §5.2.12.2) or x2APIC ID (type 9,
 * §5.2.12.12), and whether each is enabled or can be brought online. */
#ifndef CK_BARE_MADT_H
#define CK_BARE_MADT_H
#include <stdbool.h>
#include <stdint.h>
#include "acpi.h"

#define MADT_MAX_CPUS 64

struct madt_cpu {
    uint32_t apic_id;
    uint32_t uid;               /* ACPI processor UID */
    bool enabled;               /* flags bit 0 */
    bool online_capable;        /* flags bit 1 (ACPI 6.3+): may be enabled later */
    bool x2apic;                /* from a type 9 entry */
};

struct madt_info {
    bool present;
    uint64_t lapic_addr;        /* the header's, or the type 5 override */
    bool pcat_compat;           /* flags bit 0: 8259s present */
    unsigned ncpus;
    struct madt_cpu cpus[MADT_MAX_CPUS];
    unsigned dropped;           /* processors beyond MADT_MAX_CPUS */
};

/* Decodes a verified MADT of len bytes (acpi_table_find's result); entry
 * problems (a length under 2, an entry past the table's end) end the walk
 * and are written into info's problems. */
void madt_parse(const uint8_t *madt, struct madt_info *out, struct acpi_info *info);

/* The processors that can run: enabled, or online-capable. */
unsigned madt_usable(const struct madt_info *m);

#endif
