/* struct platform's wait_input on bare metal. Between a serial session's
 * requests the kernel waits on its host (`cyclekit table` building the next
 * bodies, a test checking the last records). Polled, that wait keeps a core
 * busy: under QEMU every poll of the UART is an exit to the emulator, so the
 * emulator's thread spins at 100 % for as long as the host thinks, taking a
 * core from the host it waits on (measured: a table session's QEMU spent
 * two fifths of its time in those polls). Halted between polls, it costs
 * nothing. Interrupts stay off: IF is set only across the HLT, and the
 * only unmasked source is the APIC timer (traps/watchdog.c says why). */
#include "wait_input.h"
#include "bare/console/console.h"
#include "bare/traps/watchdog.h"

/* A millisecond between looks at the line: the latency a request can gain,
 * against 1,000 wake-ups a second of an idle session. */
#define NAP_US 1000u
/* Back to the caller now and then (its own polling, its checks). */
#define NAPS_MAX 100u

void bare_wait_input(void)
{
    for (unsigned i = 0; i < NAPS_MAX && !console_input_ready(); i++)
        if (!apic_nap(NAP_US))
            return; /* no APIC timer: read_byte's polling is the wait */
}
