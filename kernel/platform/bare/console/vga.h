/* The 80x25 VGA text screen at 0xB8000 (BIOS boots only). */
#ifndef CK_BARE_VGA_H
#define CK_BARE_VGA_H

void vga_init(void);
void vga_write(const char *s, unsigned len);

#endif
