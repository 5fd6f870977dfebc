/* Text out: the serial port carries everything. The screen (VGA text on
 * BIOS boots, GRUB's framebuffer on UEFI) shows the run's own layout
 * (kernel/report/screen/) through console_screen, or with screen=log/all
 * the readable lines (and JSON lines) as a scrolling log. */
#include <stdarg.h>
#include "bare/boot_info.h"
#include "bare/efi/efi_log.h"
#include "console.h"
#include "fbcon.h"
#include "keyboard.h"
#include "bare/options.h"
#include "options/settings.h"
#include "platform/out.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "serial.h"
#include "vga.h"

static bool serial_on, screen_on, screen_json, layout;
static enum { SCREEN_NONE_KIND, SCREEN_VGA_TEXT, SCREEN_FRAMEBUFFER } screen_kind;

void console_init(void)
{
    serial_on = serial_init((uint16_t)settings.serial, settings.baud);
    screen_on = false;
    if (settings.screen != SCREEN_OFF) {
        if (boot_info.fb.present && boot_info.fb.type == 1 && fbcon_init()) {
            screen_kind = SCREEN_FRAMEBUFFER;
            screen_on = true;
        } else if (!boot_info.efi || settings.screen != SCREEN_AUTO) {
            /* VGA text: BIOS boots (GRUB leaves text mode), or when asked. */
            screen_kind = SCREEN_VGA_TEXT;
            screen_on = true;
            vga_init();
        }
    }
    screen_json = settings.screen == SCREEN_ALL;
    layout = screen_on && settings.screen != SCREEN_ALL && settings.screen != SCREEN_LOG;
}

/* struct platform's read_byte: the serial session's input (serve). */
int console_read_byte(void)
{
    return serial_on ? serial_read_byte() : -2;
}

bool console_input_ready(void)
{
    return serial_on && serial_data_ready();
}

static bool screen_size(unsigned *cols, unsigned *rows)
{
    if (!layout)
        return false;
    if (screen_kind == SCREEN_FRAMEBUFFER)
        fbcon_size(cols, rows);
    else
        vga_size(cols, rows);
    return true;
}

static void screen_row(unsigned y, const char *text, unsigned len)
{
    if (!layout)
        return;
    if (screen_kind == SCREEN_FRAMEBUFFER)
        fbcon_row(y, text, len);
    else
        vga_row(y, text, len);
}

const struct screen_ops console_screen = { screen_size, screen_row };

void console_out(enum out_channel channel, const char *text, size_t len)
{
    efi_log_append(text, len); /* the UEFI log file: the serial port's bytes, with or without one */
    if (serial_on)
        serial_write(text, (unsigned)len);
    if (screen_on && !layout && (channel == OUT_HUMAN || screen_json)) {
        if (screen_kind == SCREEN_FRAMEBUFFER)
            fbcon_write(text, (unsigned)len);
        else
            vga_write(text, (unsigned)len);
    }
}

void console_describe(char *buf, size_t size)
{
    size_t n;
    char file[96];
    efi_log_where(file, sizeof file);
    if (serial_on)
        n = (size_t)ksnprintf(buf, size, "%sserial 0x%x at %u baud 8N1", file, (unsigned)settings.serial,
                              (unsigned)settings.baud);
    else
        n = (size_t)ksnprintf(buf, size, "%sno serial port (%s)", file,
                              settings.serial ? "no UART answered" : "serial=none");
    if (n >= size)
        return;
    const char *kind = screen_kind == SCREEN_FRAMEBUFFER ? "framebuffer" : "VGA text";
    if (screen_on)
        n += (size_t)ksnprintf(buf + n, size - n, ", screen: %s%s", kind,
                               layout ? "" : screen_json ? " (all lines)" : " (readable lines)");
    else
        n += (size_t)ksnprintf(buf + n, size - n, ", screen: off%s",
                               boot_info.efi && settings.screen != SCREEN_OFF ? " (UEFI, no framebuffer)" : "");
    if (n < size)
        ksnprintf(buf + n, size - n, "; %s", keyboard_describe());
}

/* The screen alone: the layout's row `from_bottom` rows above its last,
 * else the scrolling lines. */
static void screen_words(const char *text, unsigned len, unsigned from_bottom, bool scrolling)
{
    unsigned cols, rows, from = 0;
    if (!screen_size(&cols, &rows)) {
        if (scrolling && screen_on && screen_kind == SCREEN_FRAMEBUFFER)
            fbcon_write(text, len);
        else if (scrolling && screen_on)
            vga_write(text, len);
        return;
    }
    while (from < len && text[from] == '\n') /* one row, one line */
        from++;
    while (len > from && text[len - 1] == '\n')
        len--;
    if (rows > from_bottom)
        screen_row(rows - 1 - from_bottom, text + from, len - from);
}

/* Outside the log: after the end record, or when a fault hit the fault
 * handler and the log can no longer be trusted to finish a record. */
void console_last_words(const char *fmt, ...)
{
    char text[160];
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    unsigned len = n < (int)sizeof text ? (unsigned)n : sizeof text - 1;
    console_out(OUT_HUMAN, text, len);
    screen_words(text, len, 0, false);
}

/* What became of the UEFI log file, on the row above the last words (the
 * exit's line), where the summary page stays readable; on the serial port
 * too when `serial_too` (a failure: the serial log is then the only one). */
void console_file_words(bool serial_too, const char *text)
{
    unsigned len = (unsigned)kstrlen(text);
    if (serial_too && serial_on)
        serial_write(text, len);
    screen_words(text, len, 1, true);
}
