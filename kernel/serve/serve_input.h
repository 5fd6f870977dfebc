/* The session's input: request lines and the binary frames of `load`. */
#ifndef CK_SERVE_INPUT_H
#define CK_SERVE_INPUT_H
#include <stddef.h>
#include <stdint.h>
#include "platform/platform.h"

#define SERVE_LINE_MAX 256
/* A frame's bytes may pause at most this many empty polls (each about a
 * millisecond: platform read_byte) before the frame is declared broken. */
#define SERVE_GAP_POLLS 2000u

enum { SERVE_LINE_CLOSED = -1, SERVE_LINE_TOO_LONG = -2 };

/* The next line without its end (LF; a CR before it is dropped), waiting as
 * long as it takes. Returns its length, SERVE_LINE_CLOSED when the input
 * ended, SERVE_LINE_TOO_LONG when it did not fit (the rest is skipped). */
int serve_read_line(const struct platform *p, char *line, size_t size);

/* Exactly len bytes into buf; returns how many arrived before a pause of
 * SERVE_GAP_POLLS polls or the input's end (len when complete). */
uint32_t serve_read_frame(const struct platform *p, uint8_t *buf, uint32_t len);

/* Discards bytes until the input is quiet for `polls` polls (after a frame
 * whose length was refused, so its bytes are not read as requests). */
void serve_drain(const struct platform *p, uint32_t polls);

#endif
