#ifndef CK_BARE_CONSOLE_H
#define CK_BARE_CONSOLE_H
#include <stdbool.h>

/* Serial and screen as the options and boot mode say; call after options_parse(). */
void console_init(void);
/* One readable line about what the console found (serial present? screen?). */
void console_report(void);

#endif
