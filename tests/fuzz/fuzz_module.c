/* The benchmark file validator (kernel/load/module_check.c) on any bytes.
 *
 * The first input byte chooses how the rest is seen: bit 0 set, the total
 * length field and the CRC are made right before checking (so the fuzzer
 * reaches every field behind the CRC, which random bytes almost never
 * pass); clear, the bytes are checked as they are. The copy is exactly as
 * long as the input, so ASan sees any read past it. A file it accepts must
 * describe itself consistently: lengths inside the file, terminated names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/crc32.h"
#include "load/module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void make_consistent(uint8_t *p, size_t n)
{
    if (n < MODULE_HEADER_LEN + 4)
        return;
    uint32_t total = (uint32_t)n, crc;
    memcpy(p + 8, &total, 4); /* little-endian host (x86) */
    crc = crc32_update(0, p, n - 4);
    memcpy(p + n - 4, &crc, 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    size_t n = size - 1;
    uint8_t *file = malloc(n ? n : 1);
    if (!file)
        abort();
    memcpy(file, data + 1, n);
    if (data[0] & 1)
        make_consistent(file, n);
    static struct module_view m;
    char why[200];
    const char *r = module_check(file, n, &m, why, sizeof why);
    if (r && (r != why || strnlen(why, sizeof why) == sizeof why || !why[0]))
        abort();
    if (!r) {
        const uint8_t *end = file + n - 4;
        if (m.body < file || m.body + m.body_len > end || m.init < file || m.init + m.init_len > end ||
            m.body_len > MODULE_BODY_MAX || m.init_len > MODULE_INIT_MAX || (m.mode != 32 && m.mode != 64) ||
            !m.name[0] || strnlen(m.name, sizeof m.name) == sizeof m.name)
            abort();
    }
    free(file);
    return 0;
}
