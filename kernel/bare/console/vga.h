/* The 80x25 VGA text screen at 0xB8000 (BIOS boots only). */
#ifndef CK_BARE_VGA_H
#define CK_BARE_VGA_H

void vga_init(void);
void vga_write(const char *s, unsigned len); /* a scrolling log (screen=all) */
/* The screen layout's rows (vga_rows.c): the grid, and row y as text then blanks. */
void vga_size(unsigned *cols, unsigned *rows);
void vga_row(unsigned y, const char *text, unsigned len);

#endif
