/* Reading is polled (interrupts stay off): platform->read_byte waits about a
 * millisecond for a byte, so "n empty polls" is a time bound that needs no
 * clock, the same on a 486 without a TSC as under QEMU. Only the wait for a
 * request line, which has no bound, lets the platform idle (wait_input). */
#include "serve_input.h"

int serve_read_line(const struct platform *p, char *line, size_t size)
{
    size_t n = 0;
    int too_long = 0;
    for (;;) {
        int c = p->read_byte();
        if (c == -1) {
            if (p->wait_input) /* between requests: the host may think for long */
                p->wait_input();
            continue;
        }
        if (c < 0)
            return SERVE_LINE_CLOSED;
        if (c == '\n')
            break;
        if (c == '\r')
            continue;
        if (n + 1 < size)
            line[n++] = (char)c;
        else
            too_long = 1;
    }
    line[n] = '\0';
    return too_long ? SERVE_LINE_TOO_LONG : (int)n;
}

uint32_t serve_read_frame(const struct platform *p, uint8_t *buf, uint32_t len)
{
    uint32_t got = 0, quiet = 0;
    while (got < len && quiet < SERVE_GAP_POLLS) {
        int c = p->read_byte();
        if (c == -1) {
            quiet++;
            continue;
        }
        if (c < 0)
            break;
        buf[got++] = (uint8_t)c;
        quiet = 0;
    }
    return got;
}

void serve_drain(const struct platform *p, uint32_t polls)
{
    for (uint32_t quiet = 0; quiet < polls;) {
        int c = p->read_byte();
        if (c == -2)
            return;
        quiet = c == -1 ? quiet + 1 : 0;
    }
}
