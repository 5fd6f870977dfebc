/* CRC-32 bit by bit: no table, so no 1 KiB of .data on a floppy kernel; the
 * inputs (benchmark files, serial frames) are a few KiB at most. */
#include "crc32.h"

uint32_t crc32_update(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}
