#include <stdint.h>
#include "fwcfg.h"
#include "io.h"
#include "machine.h"
#include "bare/options.h"
#include "options/settings.h"
#include "bare/console/console.h"

/* scripts/run-qemu adds -device isa-debug-exit,iobase=0xf4,iosize=0x04. */
#define DEBUG_EXIT_PORT 0xf4

static int method(void)
{
    if (settings.exit == EXIT_AUTO)
        return fwcfg_present() ? EXIT_QEMU : EXIT_HALT;
    return (int)settings.exit;
}

const char *machine_exit_method(void)
{
    switch (method()) {
    case EXIT_QEMU: return "QEMU isa-debug-exit (port 0xf4), halt if absent";
    case EXIT_REBOOT: return "reboot";
    default: return "halt";
    }
}

void machine_reboot(void)
{
    /* The keyboard controller's reset line, then a triple fault. */
    for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
        ;
    outb(0x64, 0xfe);
    struct { uint16_t limit; uint32_t base; } __attribute__((packed)) none = { 0, 0 };
    __asm__ volatile("lidt %0; int3" : : "m"(none));
}

void machine_exit(int status)
{
    int m = method();
    if (m == EXIT_QEMU)
        outl(DEBUG_EXIT_PORT, (uint32_t)status); /* QEMU exits with (status << 1) | 1 */
    if (m == EXIT_REBOOT)
        machine_reboot();
    console_last_words("cyclekit: run complete (status %d); the machine is halted.\n", status);
    cpu_halt_forever();
}
