#include <stdint.h>
#include "fwcfg.h"
#include "io.h"
#include "lib/kstring.h"

#define FWCFG_SELECT 0x510
#define FWCFG_DATA 0x511
#define FWCFG_SIGNATURE 0x0000
#define FWCFG_FILE_DIR 0x0019

static void select_item(uint16_t item) { outw(FWCFG_SELECT, item); }

static void read_bytes(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n--)
        *p++ = inb(FWCFG_DATA);
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

bool fwcfg_present(void)
{
    static int known = -1;
    if (known < 0) {
        char sig[4];
        select_item(FWCFG_SIGNATURE);
        read_bytes(sig, 4);
        known = kmemcmp(sig, "QEMU", 4) == 0;
    }
    return known;
}

int fwcfg_read_file(const char *name, char *buf, size_t size)
{
    if (!fwcfg_present() || size == 0)
        return -1;
    uint8_t count_be[4];
    select_item(FWCFG_FILE_DIR);
    read_bytes(count_be, 4);
    uint32_t count = be32(count_be);
    for (uint32_t i = 0; i < count && i < 4096; i++) {
        uint8_t entry[64]; /* size (be32), select (be16), reserved, name[56] */
        read_bytes(entry, sizeof entry);
        entry[63] = '\0';
        if (kstrcmp((const char *)entry + 8, name) != 0)
            continue;
        uint32_t len = be32(entry);
        select_item((uint16_t)(entry[4] << 8 | entry[5]));
        size_t n = len < size - 1 ? len : size - 1;
        read_bytes(buf, n);
        buf[n] = '\0';
        return (int)n;
    }
    return -1;
}
