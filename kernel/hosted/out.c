/* Everything the portable code prints goes to stdout, both channels: the
 * log of the hosted runner is the same mixed text/JSON stream as the serial
 * log of the kernel, so the same parser reads it. */
#include <stdio.h>
#include <string.h>

#include "hosted.h"

void hosted_out(enum out_channel channel, const char *text, size_t len)
{
    (void)channel;
    fwrite(text, 1, len, stdout);
    /* Whole lines reach a pipe at once, so a crash loses at most a partial line. */
    if (memchr(text, '\n', len))
        fflush(stdout);
}
