/* UTF-8 as the formats need it: whether bytes form one well-formed
 * character, so a string is written as text (RFC 8259 §8.1: JSON text is
 * UTF-8) and a stray byte is replaced rather than passed on. */
#ifndef CK_UTF8_H
#define CK_UTF8_H
#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER, in UTF-8: what a byte that starts no
 * well-formed sequence becomes. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/* The length (1 to 4) of the well-formed UTF-8 sequence at s[0..n), or 0
 * when the bytes there are not one: the byte ranges of Unicode's Table 3-7
 * "Well-Formed UTF-8 Byte Sequences" (Unicode Standard §3.9; RFC 3629 §4),
 * which leave out overlong forms, surrogates (U+D800..U+DFFF) and anything
 * above U+10FFFF. */
size_t utf8_sequence(const char *s, size_t n);

#endif
