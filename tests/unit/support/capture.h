/* The unit tests' platform (installed before main): everything written
 * through out_write() lands in two growing buffers, one per channel. */
#ifndef CK_TEST_CAPTURE_H
#define CK_TEST_CAPTURE_H
#include <stddef.h>

void capture_reset(void);
const char *capture_human(void);   /* NUL-terminated text of OUT_HUMAN */
const char *capture_machine(void); /* NUL-terminated text of OUT_MACHINE */

#endif
