/* Text on a linear framebuffer (UEFI boots have no VGA text mode). */
#ifndef CK_BARE_FBCON_H
#define CK_BARE_FBCON_H
#include <stdbool.h>

/* Uses the framebuffer GRUB described; false when there is none we can draw on. */
bool fbcon_init(void);
void fbcon_write(const char *s, unsigned len); /* a scrolling log (screen=all) */
/* The screen layout's rows: the grid, and row y as text then blanks. */
void fbcon_size(unsigned *cols, unsigned *rows);
void fbcon_row(unsigned y, const char *text, unsigned len);

#endif
