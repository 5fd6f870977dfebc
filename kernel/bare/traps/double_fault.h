/* The double-fault task (double_fault.c). */
#ifndef CK_BARE_DOUBLE_FAULT_H
#define CK_BARE_DOUBLE_FAULT_H
#include <stdbool.h>

/* The kernel's TSS loaded (LTR), the double-fault task's TSS and stack, and
 * IDT vector 8 as a task gate to it. After gdt_init() and idt_init(). */
void double_fault_init(void);

/* The self-test's overflow case (option overflow): paging on with the page
 * under the benchmark stack not present. False: not asked for. */
bool double_fault_arm_overflow(void);

#endif
