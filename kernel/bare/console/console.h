#ifndef CK_BARE_CONSOLE_H
#define CK_BARE_CONSOLE_H
#include <stdbool.h>
#include <stddef.h>
#include "platform/out.h"
#include "platform/screen.h"

/* Serial and screen as the options and boot mode say; call after options_parse(). */
void console_init(void);
/* One readable line about what the console found (serial present? screen?). */
/* struct platform's out: serial and screen. */
void console_out(enum out_channel channel, const char *text, size_t len);
/* The serial port's next byte (-1: none yet, -2: no serial port). */
int console_read_byte(void);
/* The session's input has a byte waiting (false: none yet, or no input). */
bool console_input_ready(void);
/* One readable line straight to the console, outside the log. */
void console_last_words(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The log file's fate: the screen, and the serial port when serial_too. */
void console_file_words(bool serial_too, const char *text);
void console_describe(char *buf, size_t size); /* the console line of the platform record */
/* struct platform's screen: the layout's rows on VGA text or the framebuffer. */
extern const struct screen_ops console_screen;

#endif
