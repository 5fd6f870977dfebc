/* The serial session's idle wait on bare metal (struct platform's wait_input). */
#ifndef CK_BARE_WAIT_INPUT_H
#define CK_BARE_WAIT_INPUT_H

/* Returns once the serial port has a byte, or after about 0.1 s, or at
 * once where there is no timer to halt on. */
void bare_wait_input(void);

#endif
