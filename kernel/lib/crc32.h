/* CRC-32 as in IEEE 802.3, zlib and PNG (reflected polynomial 0xEDB88320,
 * initial value and final XOR 0xFFFFFFFF; check value of "123456789" is
 * 0xCBF43926, per the PNG specification, Annex D,
 * https://www.w3.org/TR/png/#D-CRCAppendix). The host tools compute the same
 * with Python's zlib.crc32, so a benchmark file or a serial frame is checked
 * with one definition on both ends. */
#ifndef CK_CRC32_H
#define CK_CRC32_H
#include <stddef.h>
#include <stdint.h>

/* The CRC of n bytes continuing from crc (0 to start). */
uint32_t crc32_update(uint32_t crc, const void *data, size_t n);

#endif
