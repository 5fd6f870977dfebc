/* The PS/2 keyboard through the i8042 controller, polled (no interrupts):
 * after the run, PgUp/PgDn page through the screen for a bounded time. */
#ifndef CK_BARE_KEYBOARD_H
#define CK_BARE_KEYBOARD_H

/* Pages the screen layout while keys come, until `keys=` seconds pass
 * without one (or Esc/Enter/q); returns at once without a keyboard, a
 * screen layout, or with keys=0. */
void keyboard_browse(void);
/* "keys: ..." for the platform record's readable lines: what the end does. */
const char *keyboard_describe(void);

#endif
