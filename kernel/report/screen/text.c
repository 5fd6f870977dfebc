/* The layout's state, and the one way text is made to fit: shortened in
 * the middle, so both ends of a name stay readable. */
#include "lib/kstring.h"
#include "state.h"

struct screen_state scr;

void screen_reset(void) { kmemset(&scr, 0, sizeof scr); }

void screen_shorten(char *dst, const char *src, unsigned w)
{
    unsigned len = (unsigned)kstrlen(src);
    if (len <= w) {
        kmemcpy(dst, src, len + 1);
        return;
    }
    /* Keep both ends: names differ at the end (lat/imul vs lat/imul/tput). */
    unsigned head = (w - 1) / 2, tail = w - 1 - head;
    kmemcpy(dst, src, head);
    dst[head] = '~';
    kmemcpy(dst + head + 1, src + len - tail, tail);
    dst[w] = '\0';
}
