/* Text out: the serial port carries everything, the VGA text screen the
 * readable lines (BIOS boots only: UEFI leaves no text mode). */
#include <stdarg.h>
#include "platform/bare/boot_info.h"
#include "console.h"
#include "fbcon.h"
#include "lib/option.h"
#include "platform/out.h"
#include "lib/fmt.h"
#include "serial.h"
#include "vga.h"

static const struct option_name serial_ports[] = {
    { "com1", 0x3f8 }, { "com2", 0x2f8 }, { "com3", 0x3e8 }, { "com4", 0x2e8 }, { "none", 0 },
    { NULL, 0 },
};
OPTION_UINT_NAMED(serial, "serial", 0x3f8, 0x100, 0xfff8, serial_ports,
                  "serial port: com1..com4, an I/O address, or none");

static const struct option_name bauds[] = {
    { "115200", 115200 }, { "57600", 57600 }, { "38400", 38400 }, { "19200", 19200 },
    { "9600", 9600 }, { "4800", 4800 }, { "2400", 2400 }, { "1200", 1200 }, { NULL, 0 },
};
OPTION_ENUM(baud, "baud", 115200, bauds, "serial speed (8N1)");

enum { SCREEN_AUTO, SCREEN_ON, SCREEN_OFF, SCREEN_ALL };
static const struct option_name screen_modes[] = {
    { "auto", SCREEN_AUTO }, { "on", SCREEN_ON }, { "off", SCREEN_OFF }, { "all", SCREEN_ALL },
    { NULL, 0 },
};
OPTION_ENUM(screen, "screen", SCREEN_AUTO, screen_modes,
            "screen: auto (VGA text on BIOS, framebuffer on UEFI), on, off, all (also JSON lines)");

static bool serial_on, screen_on, screen_json;
static enum { SCREEN_NONE_KIND, SCREEN_VGA_TEXT, SCREEN_FRAMEBUFFER } screen_kind;

void console_init(void)
{
    serial_on = serial_init((uint16_t)opt_serial, opt_baud);
    screen_on = false;
    if (opt_screen != SCREEN_OFF) {
        if (boot_info.fb.present && boot_info.fb.type == 1 && fbcon_init()) {
            screen_kind = SCREEN_FRAMEBUFFER;
            screen_on = true;
        } else if (!boot_info.efi || opt_screen != SCREEN_AUTO) {
            /* VGA text: BIOS boots (GRUB leaves text mode), or when asked. */
            screen_kind = SCREEN_VGA_TEXT;
            screen_on = true;
            vga_init();
        }
    }
    screen_json = opt_screen == SCREEN_ALL;
}

/* struct platform's read_byte: the serial session's input (serve). */
int console_read_byte(void)
{
    return serial_on ? serial_read_byte() : -2;
}

void console_out(enum out_channel channel, const char *text, size_t len)
{
    if (serial_on)
        serial_write(text, (unsigned)len);
    if (screen_on && (channel == OUT_HUMAN || screen_json)) {
        if (screen_kind == SCREEN_FRAMEBUFFER)
            fbcon_write(text, (unsigned)len);
        else
            vga_write(text, (unsigned)len);
    }
}

void console_describe(char *buf, size_t size)
{
    size_t n;
    if (serial_on)
        n = (size_t)ksnprintf(buf, size, "serial 0x%x at %u baud 8N1", (unsigned)opt_serial, (unsigned)opt_baud);
    else
        n = (size_t)ksnprintf(buf, size, "no serial port (%s)", opt_serial ? "no UART answered" : "serial=none");
    if (n >= size)
        return;
    const char *kind = screen_kind == SCREEN_FRAMEBUFFER ? "framebuffer" : "VGA text";
    if (screen_on)
        ksnprintf(buf + n, size - n, ", screen: %s%s", kind, screen_json ? " (all lines)" : "");
    else
        ksnprintf(buf + n, size - n, ", screen: off%s",
                  boot_info.efi && opt_screen != SCREEN_OFF ? " (UEFI, no framebuffer)" : "");
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
    console_out(OUT_HUMAN, text, n < (int)sizeof text ? (size_t)n : sizeof text - 1);
}
