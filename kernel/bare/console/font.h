/* The 8x16 glyphs for ASCII 32..126, generated at build time from GRUB's
 * ascii.pf2 by scripts/pf2-font (build/gen/font.c). */
#ifndef CK_BARE_FONT_H
#define CK_BARE_FONT_H
#include <stdint.h>

#define FONT_FIRST 32
#define FONT_LAST 126
extern const uint8_t font_8x16[FONT_LAST - FONT_FIRST + 1][16];

#endif
