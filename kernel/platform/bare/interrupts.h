#ifndef CK_BARE_INTERRUPTS_H
#define CK_BARE_INTERRUPTS_H
/* Masks every interrupt source we can reach (needs cpu_probe() first). */
void interrupts_quiesce(void);
#endif
