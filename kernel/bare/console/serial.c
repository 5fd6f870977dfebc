#include "bare/io.h"
#include "serial.h"

enum { RBR = 0, THR = 0, IER = 1, DLL = 0, DLM = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5 };
#define LSR_THRE 0x20
#define LSR_DATA 0x01
#define MCR_LOOPBACK 0x10
#define UART_CLOCK 115200u
/* Bounded waits: a UART that stops answering must not stop the run. At
 * 300 baud a character takes ~33 ms; this is several times that on a 1 GHz
 * core and a few seconds on a 60 MHz Pentium, once, after which we give up. */
#define SPIN_LIMIT 4000000u

static uint16_t port;
static bool present;

bool serial_present(void) { return present; }
uint16_t serial_base(void) { return port; }

bool serial_init(uint16_t base, uint32_t baud)
{
    port = base;
    present = false;
    if (base == 0 || baud == 0 || UART_CLOCK % baud != 0)
        return false;
    if (inb(base + LSR) == 0xff) /* floating bus: nothing decodes these ports */
        return false;
    uint16_t divisor = (uint16_t)(UART_CLOCK / baud);
    outb(base + IER, 0x00);          /* polled: no interrupts */
    outb(base + LCR, 0x80);          /* DLAB on */
    outb(base + DLL, divisor & 0xff);
    outb(base + DLM, divisor >> 8);
    outb(base + LCR, 0x03);          /* 8N1, DLAB off */
    outb(base + FCR, 0xc7);          /* FIFOs on and cleared */
    outb(base + MCR, MCR_LOOPBACK | 0x03);
    while (inb(base + LSR) & LSR_DATA) /* drain anything stale */
        (void)inb(base + RBR);
    outb(base + THR, 0xa5);
    uint32_t spins = 0;
    while (!(inb(base + LSR) & LSR_DATA) && ++spins < 100000)
        ;
    bool echoed = (inb(base + LSR) & LSR_DATA) && inb(base + RBR) == 0xa5;
    outb(base + MCR, 0x03);          /* DTR, RTS; loopback off */
    present = echoed;
    return present;
}

static void put_raw(char c)
{
    uint32_t spins = 0;
    while (!(inb(port + LSR) & LSR_THRE)) {
        if (++spins == SPIN_LIMIT) {
            present = false; /* stuck transmitter: stop waiting on it */
            return;
        }
    }
    outb(port + THR, (uint8_t)c);
}

void serial_write(const char *s, unsigned len)
{
    for (unsigned i = 0; i < len && present; i++) {
        if (s[i] == '\n')
            put_raw('\r');
        put_raw(s[i]);
    }
}

/* One received byte, or -1 when none arrived within POLL_LIMIT polls of the
 * line status register (about a millisecond on real hardware, where each
 * port read takes about a microsecond on the ISA bus). Polled: interrupts
 * stay off (16550 LSR bit 0, "data ready"). */
#define POLL_LIMIT 1000u
int serial_read_byte(void)
{
    if (!present)
        return -2;
    for (uint32_t i = 0; i < POLL_LIMIT; i++)
        if (inb(port + LSR) & LSR_DATA)
            return inb(port + RBR);
    return -1;
}

bool serial_data_ready(void)
{
    return present && (inb(port + LSR) & LSR_DATA);
}
