/* How the run ends: QEMU's isa-debug-exit with the status, else halt or reboot. */
#ifndef CK_BARE_MACHINE_H
#define CK_BARE_MACHINE_H

void machine_exit(int status) __attribute__((noreturn));
/* The keyboard controller's reset line, then a triple fault. */
void machine_reboot(void);
/* One readable line on how the run will end. */
const char *machine_exit_method(void);

#endif
