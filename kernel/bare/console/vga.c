#include <stdint.h>
#include "bare/io.h"
#include "vga.h"

#define COLS 80
#define ROWS 25
#define ATTR 0x0700 /* light grey on black */

static volatile uint16_t *const screen = (volatile uint16_t *)0xB8000;
static unsigned row, col;

static void hide_cursor(void)
{
    outb(0x3d4, 0x0a);
    outb(0x3d5, 0x20);
}

void vga_init(void)
{
    for (unsigned i = 0; i < COLS * ROWS; i++)
        screen[i] = ATTR | ' ';
    row = col = 0;
    hide_cursor();
}

static void scroll(void)
{
    for (unsigned i = 0; i < COLS * (ROWS - 1); i++)
        screen[i] = screen[i + COLS];
    for (unsigned i = COLS * (ROWS - 1); i < COLS * ROWS; i++)
        screen[i] = ATTR | ' ';
    row = ROWS - 1;
}

void vga_write(const char *s, unsigned len)
{
    for (unsigned i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\n') {
            col = 0;
            if (++row == ROWS)
                scroll();
            continue;
        }
        if (c == '\r') {
            col = 0;
            continue;
        }
        if (col == COLS) { /* wrap long lines */
            col = 0;
            if (++row == ROWS)
                scroll();
        }
        screen[row * COLS + col++] = ATTR | (uint8_t)c;
    }
}
