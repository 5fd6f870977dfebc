#ifndef CK_BARE_CPU_SETUP_H
#define CK_BARE_CPU_SETUP_H

void bare_cpu_setup(void);
void fpu_reset(void);

#endif
