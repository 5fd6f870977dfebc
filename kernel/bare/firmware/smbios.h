/* SMBIOS (DMTF DSP0134, version 3.x): the entry point and the structure
 * table, parsed from bytes with every length checked against its bounds, so
 * a malformed table is rejected with a reason instead of read past its end.
 * Pure: the caller finds the bytes (smbios_find.c on bare metal, the fuzz
 * target and the unit tests anywhere). */
#ifndef CK_BARE_SMBIOS_H
#define CK_BARE_SMBIOS_H
#include <stddef.h>
#include <stdint.h>
#include "platform/platform_smbios.h"

/* An entry point (`_SM_`, 2.1 32-bit, §5.2.1; `_SM3_`, 3.0 64-bit, §5.2.2)
 * at ep[0..len): checks the anchor, the length and the checksums, fills
 * major/minor/table_addr/table_len. NULL when valid, else why not. */
const char *smbios_entry_parse(const uint8_t *ep, size_t len, struct platform_smbios *out);

/* The entry point's length (0 when ep[0..avail) holds no known anchor). */
size_t smbios_entry_len(const uint8_t *ep, size_t avail);

/* Walks the structure table at table[0..len) (§6.1): types 0, 1, 2 and 17
 * into *out; stops at type 127, the end of the table, or the first
 * malformed structure (out->problem says which and why). */
void smbios_table_parse(const uint8_t *table, size_t len, struct platform_smbios *out);

/* Bare metal: the entry point from the multiboot2 SMBIOS tag, else the
 * scan of 0xF0000-0xFFFFF (§5.2.1), then the table. Fills *out. */
void smbios_find(struct platform_smbios *out);

#endif
