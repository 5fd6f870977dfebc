/* The ACPI parser (kernel/bare/firmware/acpi.c, madt.c) on any
 * bytes. The input is physical memory from address 0x1000 on, the RSDP at
 * its start; the parser may read only what the map hands out (ASan sees a
 * read past the copy, which is exactly as long as the input). Afterwards
 * every table it kept must be whole and sum to zero, and the counts must
 * stay within their arrays. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bare/firmware/acpi.h"
#include "bare/firmware/madt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BASE 0x1000u

struct region { const uint8_t *bytes; size_t size; };

static const void *map(void *ctx, uint64_t phys, uint32_t len)
{
    const struct region *r = ctx;
    if (phys < BASE || phys - BASE > r->size || len > r->size - (phys - BASE))
        return NULL;
    return r->bytes + (phys - BASE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < ACPI_RSDP_V1_LEN || size > 1u << 20)
        return 0;
    uint8_t *copy = malloc(size);
    if (!copy)
        abort();
    memcpy(copy, data, size);
    struct region r = { copy, size };
    struct acpi_mem mem = { map, &r };
    static struct acpi_info info;
    acpi_parse(&mem, copy, size < ACPI_RSDP_V2_LEN ? (uint32_t)size : ACPI_RSDP_V2_LEN, "fuzz", &info);
    if (info.ntables > ACPI_MAX_TABLES || info.nproblems > ACPI_MAX_PROBLEMS)
        abort();
    for (unsigned i = 0; i < info.ntables; i++) {
        const uint8_t *t = map(&r, info.tables[i].addr, info.tables[i].length);
        if (!t || acpi_sum(t, info.tables[i].length) != 0 || info.tables[i].length < ACPI_HEADER_LEN)
            abort();
    }
    const uint8_t *m = acpi_table_find(&info, &mem, "APIC");
    if (m) {
        static struct madt_info madt;
        madt_parse(m, &madt, &info);
        if (madt.ncpus > MADT_MAX_CPUS || madt_usable(&madt) > madt.ncpus)
            abort();
    }
    free(copy);
    return 0;
}
