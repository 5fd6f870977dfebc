#ifndef CK_BARE_IDT_H
#define CK_BARE_IDT_H
#include <stdint.h>
void idt_init(void);
void idt_set_task_gate(unsigned vector, uint16_t tss_selector);
#endif
