/* The SMBIOS parser (kernel/bare/firmware/smbios.c) on any bytes:
 * the first byte chooses how many of the rest are an entry point, the rest
 * is a structure table. Both copies are exactly as long as the input part,
 * so ASan sees any read past them; what the parser leaves must be well
 * formed (terminated strings, counts inside their arrays). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bare/firmware/smbios.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_string(const char *s)
{
    if (strnlen(s, SMBIOS_STR) == SMBIOS_STR)
        abort();
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7e)
            abort();
}

static void check(const struct platform_smbios *sm)
{
    if (sm->nmem > SMBIOS_MEMDEV_MAX || sm->nmem > sm->mem_total)
        abort();
    const char *strs[] = { sm->bios_vendor, sm->bios_version, sm->bios_date, sm->sys_manufacturer,
                           sm->sys_product, sm->sys_version, sm->board_manufacturer,
                           sm->board_product, sm->board_version };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        check_string(strs[i]);
    for (unsigned i = 0; i < sm->nmem; i++) {
        check_string(sm->mem[i].locator);
        check_string(sm->mem[i].bank);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1u << 16)
        return 0;
    size_t ep_len = data[0] % 0x30;
    if (ep_len > size - 1)
        ep_len = size - 1;
    uint8_t *ep = malloc(ep_len ? ep_len : 1);
    uint8_t *table = malloc(size - 1 - ep_len ? size - 1 - ep_len : 1);
    if (!ep || !table)
        abort();
    memcpy(ep, data + 1, ep_len);
    memcpy(table, data + 1 + ep_len, size - 1 - ep_len);

    struct platform_smbios sm;
    memset(&sm, 0, sizeof sm);
    size_t declared = smbios_entry_len(ep, ep_len);
    const char *why = smbios_entry_parse(ep, ep_len, &sm);
    if (!why && (declared == 0 || declared > ep_len || sm.table_len < 4))
        abort(); /* accepted an entry point it cannot have checked */
    smbios_table_parse(table, size - 1 - ep_len, &sm);
    check(&sm);
    free(ep);
    free(table);
    return 0;
}
