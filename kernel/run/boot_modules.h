/* The benchmark files given at boot (GRUB module2 lines, module=PATH on the
 * hosted runner): each checked and added, a "module" record each. */
#ifndef CK_BOOT_MODULES_H
#define CK_BOOT_MODULES_H

/* Gives the loader the platform's code memory, then loads every boot
 * module (through `platform`); a kernel phase (run.c runs it guarded). */
void boot_modules_load(void);

#endif
