/* i8042 polling: the status port 0x64 says whether a byte waits at 0x60
 * (bit 0) and whether it came from the mouse (bit 5). Scancodes are set 1,
 * as the controller translates them by default: PgUp E0 49, PgDn E0 51,
 * Home E0 47, End E0 4F (the keypad's keys without E0 are the same);
 * releases have bit 7 set. Sources: IBM PC AT Technical Reference, keyboard
 * controller; https://wiki.osdev.org/PS/2_Keyboard (scan code set 1). */
#include <stdint.h>
#include "bare/fwcfg.h"
#include "bare/io.h"
#include "bare/time/pit.h"
#include "bare/options.h"
#include "options/settings.h"
#include "report/screen/screen.h"
#include "keyboard.h"

#define KBD_DATA 0x60
#define KBD_STATUS 0x64
#define ST_OUTPUT_FULL 0x01
#define ST_FROM_MOUSE 0x20
#define KEYS_AUTO_SECONDS 60
/* A port read takes about a microsecond on ISA/LPC: tens of seconds. */
#define STILL_LIMIT 50000000u

static uint32_t seconds(void)
{
    if (settings.keys == KEYS_AUTO)
        return fwcfg_present() ? 0 : KEYS_AUTO_SECONDS;
    return settings.keys;
}

/* No controller decodes the port: a floating bus reads 0xFF. */
static bool controller_answers(void) { return inb(KBD_STATUS) != 0xff; }

const char *keyboard_describe(void)
{
    if (!seconds())
        return "no paging after the run (keys=0, or auto under QEMU)";
    return controller_answers() ? "PgUp/PgDn page the screen after the run (keys=)"
                                : "no PS/2 keyboard controller: no paging after the run";
}

enum key { KEY_NONE, KEY_PGUP, KEY_PGDN, KEY_HOME, KEY_END, KEY_STOP, KEY_OTHER };

static enum key poll_key(void)
{
    uint8_t st = inb(KBD_STATUS);
    if (!(st & ST_OUTPUT_FULL))
        return KEY_NONE;
    uint8_t code = inb(KBD_DATA);
    if ((st & ST_FROM_MOUSE) || code == 0xe0 || (code & 0x80))
        return KEY_NONE; /* the prefix, a release, the mouse */
    switch (code) {
    case 0x49: return KEY_PGUP;
    case 0x51: return KEY_PGDN;
    case 0x47: return KEY_HOME;
    case 0x4f: return KEY_END;
    case 0x01: case 0x1c: case 0x10: return KEY_STOP; /* Esc, Enter, q */
    default: return KEY_OTHER;
    }
}

/* PIT channel 2 counts down from 65536 at 1.193182 MHz: the ticks since the
 * last read, as long as it is read at least every 55 ms (the loop does). */
static uint32_t pit_ticks(uint16_t *last)
{
    uint16_t now = pit_read2();
    uint32_t d = (uint16_t)(*last - now);
    *last = now;
    return d;
}

void keyboard_browse(void)
{
    uint32_t limit = seconds();
    if (!limit || !screen_on() || !controller_answers())
        return;
    for (int i = 0; i < 64 && (inb(KBD_STATUS) & ST_OUTPUT_FULL); i++)
        (void)inb(KBD_DATA); /* stale bytes (GRUB's menu keys) */
    pit_free_run();
    uint16_t last = pit_read2();
    uint64_t idle = 0, bound = (uint64_t)limit * 1193182u;
    uint32_t still = 0; /* polls without the PIT moving: a PIT that does not count */
    screen_page_end();
    while (idle < bound && still < STILL_LIMIT) {
        uint32_t d = pit_ticks(&last);
        idle += d;
        still = d ? 0 : still + 1;
        enum key k = poll_key();
        if (k == KEY_NONE)
            continue;
        idle = 0;
        if (k == KEY_STOP)
            break;
        if (k == KEY_PGUP) screen_page(-1);
        if (k == KEY_PGDN) screen_page(1);
        if (k == KEY_HOME) screen_page_home();
        if (k == KEY_END) screen_page_end();
    }
}
