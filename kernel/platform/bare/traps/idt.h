#ifndef CK_BARE_IDT_H
#define CK_BARE_IDT_H
void idt_init(void);
#endif
