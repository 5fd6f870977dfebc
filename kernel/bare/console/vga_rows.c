/* The screen layout's rows on the 80x25 VGA text screen (0xB8000: a
 * character byte and an attribute byte per cell, row after row). */
#include <stdint.h>
#include "vga.h"

#define COLS 80
#define ROWS 25
#define ATTR 0x0700 /* light grey on black */

static volatile uint16_t *const cells = (volatile uint16_t *)0xB8000;

void vga_size(unsigned *cols, unsigned *rows)
{
    *cols = COLS;
    *rows = ROWS;
}

void vga_row(unsigned y, const char *text, unsigned len)
{
    if (y >= ROWS)
        return;
    for (unsigned x = 0; x < COLS; x++)
        cells[y * COLS + x] = (uint16_t)(ATTR | (x < len ? (uint8_t)text[x] : ' '));
}
