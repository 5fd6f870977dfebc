/* Readable lines on a linear RGB framebuffer, 8x16 glyphs. When the last
 * row is reached, writing wraps to the top (clearing as it goes): scrolling
 * megabytes of uncached video memory per line would slow the run down. */
#include <stdint.h>
#include "platform/bare/boot_info.h"
#include "fbcon.h"
#include "font.h"

#define GLYPH_W 8
#define GLYPH_H 16

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

static void clear_row(uint32_t row)
{
    for (uint32_t col = 0; col < fb.cols; col++)
        draw(col, row, ' ');
}

static void newline(void)
{
    fb.col = 0;
    fb.row = (fb.row + 1) % fb.rows;
    clear_row(fb.row);
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
            draw(fb.col++, fb.row, s[i]);
        }
    }
}
