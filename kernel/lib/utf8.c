/* Well-formed UTF-8 (utf8.h). */
#include "utf8.h"

size_t utf8_sequence(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned char c = (unsigned char)s[0];
    if (c < 0x80)
        return 1;
    /* The length and the range of the second byte (Table 3-7); every
     * later byte is 80..BF. */
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0; /* below: overlong */
        else if (c == 0xed)
            hi = 0x9f; /* above: surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90; /* below: overlong */
        else if (c == 0xf4)
            hi = 0x8f; /* above: beyond U+10FFFF */
    } else {
        return 0; /* a continuation byte, C0/C1 (overlong) or F5..FF */
    }
    if (n < len)
        return 0;
    unsigned char second = (unsigned char)s[1];
    if (second < lo || second > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            return 0;
    return len;
}
