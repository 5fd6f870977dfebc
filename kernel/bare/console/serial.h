/* A polled 16550 UART. */
#ifndef CK_BARE_SERIAL_H
#define CK_BARE_SERIAL_H
#include <stdbool.h>
#include <stdint.h>

/* Programs the UART at `base` for baud 8N1 and proves it exists with the
 * loopback test. Returns false (and sends nothing later) when it is absent. */
bool serial_init(uint16_t base, uint32_t baud);
void serial_write(const char *s, unsigned len);
bool serial_present(void);
uint16_t serial_base(void);
/* The next received byte; -1: none yet (polled for a moment); -2: no UART. */
int serial_read_byte(void);
/* A received byte is waiting (one read of the line status register). */
bool serial_data_ready(void);

#endif
