/* Text on a linear RGB framebuffer, 8x16 glyphs. What each cell shows is
 * kept in RAM (shadow), so a row is redrawn only where it changed and the
 * log scrolls by redrawing from the shadow: video memory is written, never
 * read back (reads of uncached video memory are the slow part). */
#include <stdint.h>
#include "bare/boot_info.h"
#include "fbcon.h"
#include "font.h"

#define GLYPH_W 8
#define GLYPH_H 16
/* Up to 2048 x 2048 pixels of text; a bigger framebuffer uses its top left. */
#define COLS_MAX 256
#define ROWS_MAX 128

static char shadow[ROWS_MAX][COLS_MAX];

static struct {
    uint8_t *base;
    uint32_t pitch, bytes_pp, cols, rows;
    uint32_t fg, bg;
    uint32_t col, row;
} fb;

static uint32_t channel(uint8_t level, uint8_t pos, uint8_t size)
{
    return size ? ((uint32_t)level >> (8 - (size > 8 ? 8 : size))) << pos : 0;
}

bool fbcon_init(void)
{
    const struct boot_info *bi = &boot_info;
    if (!bi->fb.present || bi->fb.type != 1 || bi->fb.addr >= 0x100000000ull)
        return false;
    if (bi->fb.bpp != 32 && bi->fb.bpp != 24 && bi->fb.bpp != 16 && bi->fb.bpp != 15)
        return false;
    fb.base = (uint8_t *)(uintptr_t)bi->fb.addr;
    fb.pitch = bi->fb.pitch;
    fb.bytes_pp = (bi->fb.bpp + 7) / 8;
    fb.cols = bi->fb.width / GLYPH_W;
    fb.rows = bi->fb.height / GLYPH_H;
    if (!fb.cols || !fb.rows)
        return false;
    if (fb.cols > COLS_MAX)
        fb.cols = COLS_MAX;
    if (fb.rows > ROWS_MAX)
        fb.rows = ROWS_MAX;
    for (uint32_t r = 0; r < ROWS_MAX; r++)
        for (uint32_t col = 0; col < COLS_MAX; col++)
            shadow[r][col] = ' ';
    const uint8_t *c = bi->fb.color; /* red pos/size, green pos/size, blue pos/size */
    fb.fg = channel(0xaa, c[0], c[1]) | channel(0xaa, c[2], c[3]) | channel(0xaa, c[4], c[5]);
    fb.bg = 0;
    fb.col = fb.row = 0;
    for (uint32_t y = 0; y < fb.rows * GLYPH_H; y++)
        for (uint32_t x = 0; x < fb.cols * GLYPH_W; x++)
            for (uint32_t b = 0; b < fb.bytes_pp; b++)
                fb.base[y * fb.pitch + x * fb.bytes_pp + b] = 0;
    return true;
}

static void put_pixel(uint32_t x, uint32_t y, uint32_t value)
{
    uint8_t *p = fb.base + y * fb.pitch + x * fb.bytes_pp;
    for (uint32_t b = 0; b < fb.bytes_pp; b++)
        p[b] = (uint8_t)(value >> (8 * b));
}

static void draw(uint32_t col, uint32_t row, char ch)
{
    unsigned char c = (unsigned char)ch;
    const uint8_t *glyph = c >= FONT_FIRST && c <= FONT_LAST ? font_8x16[c - FONT_FIRST] : font_8x16['?' - FONT_FIRST];
    for (uint32_t y = 0; y < GLYPH_H; y++)
        for (uint32_t x = 0; x < GLYPH_W; x++)
            put_pixel(col * GLYPH_W + x, row * GLYPH_H + y, (glyph[y] & (0x80 >> x)) ? fb.fg : fb.bg);
}

/* Draws a cell only when it shows something else. */
static void put(uint32_t col, uint32_t row, char ch)
{
    if (shadow[row][col] == ch)
        return;
    shadow[row][col] = ch;
    draw(col, row, ch);
}

void fbcon_size(unsigned *cols, unsigned *rows)
{
    *cols = fb.cols;
    *rows = fb.rows;
}

void fbcon_row(unsigned y, const char *text, unsigned len)
{
    if (y >= fb.rows)
        return;
    for (uint32_t x = 0; x < fb.cols; x++)
        put(x, y, x < len ? text[x] : ' ');
}

/* The log goes on at the bottom: every row takes the one below it. */
static void scroll(void)
{
    for (uint32_t r = 0; r + 1 < fb.rows; r++)
        fbcon_row(r, shadow[r + 1], fb.cols); /* put() reads shadow[r + 1] before row r+1 changes */
    fbcon_row(fb.rows - 1, "", 0);
}

static void newline(void)
{
    fb.col = 0;
    if (fb.row + 1 < fb.rows)
        fb.row++;
    else
        scroll();
}

void fbcon_write(const char *s, unsigned len)
{
    for (unsigned i = 0; i < len; i++) {
        if (s[i] == '\n') {
            newline();
        } else if (s[i] == '\r') {
            fb.col = 0;
        } else {
            if (fb.col == fb.cols)
                newline();
            put(fb.col++, fb.row, s[i]);
        }
    }
}
