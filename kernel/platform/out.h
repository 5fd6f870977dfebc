/* The one place text leaves the program.
 * The bare-metal kernel sends it to serial and screen, the hosted runner to
 * stdout, the unit tests into a buffer: portable code never knows which. */
#ifndef CK_OUT_H
#define CK_OUT_H
#include <stddef.h>

enum out_channel {
    OUT_HUMAN = 1,   /* readable report lines: serial and screen */
    OUT_MACHINE = 2, /* JSON records: serial only (screen when asked) */
};

/* out_write() (platform.h) sends text to the installed platform's out. */

#endif
