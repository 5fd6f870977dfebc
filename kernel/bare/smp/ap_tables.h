/* Each application processor's own memory (ap_tables.c): its mailbox, its
 * stack with a boundary below it, its double-fault stack, its copy of the
 * GDT with its own task-state segments, and the APs' IDTs. */
#ifndef CK_BARE_AP_TABLES_H
#define CK_BARE_AP_TABLES_H
#include <stdint.h>
#include "platform/smp.h"
#include "bare/long/long_idt.h"
#include "bare/traps/gdt.h"
#include "bare/traps/tss.h"

/* The addresses of the entry points (ap.c passes them, so this file depends
 * on no handler): the 32-bit stubs (ap_entry.S), the 64-bit ones
 * (ap_isr64.S), the 32-bit double-fault task's first instruction, and the
 * NMI handlers that wake a parked AP (ap_park.S). */
struct ap_handlers {
    const uint32_t *stubs32;
    const uint32_t *stubs64;
    uint32_t df_task_eip;
    uint32_t nmi32, nmi64;          /* vector 2: the wake-up of a parked AP (ap_park.S) */
};

/* On the boot processor before the first start-up: both IDTs. */
void ap_tables_prepare(const struct ap_handlers *h);
/* The top of slot's stack (the AP's ESP at entry). */
uint32_t ap_stack_top(unsigned slot);
/* The page just below slot's stack: nothing ever lives there. */
uint32_t ap_guard_page(unsigned slot);
/* The slot whose memory (stack or double-fault stack) holds sp; -1: none. */
int ap_slot_of(uintptr_t sp);
/* slot's main task, where a task switch to its double-fault task saved the
 * interrupted state. */
const struct tss32 *ap_main_tss(unsigned slot);
/* The page directory slot's double-fault task switches to (the task switch
 * loads CR3 from the TSS, SDM Vol. 3A §7.3): the overflow test's map. */
void ap_df_task_cr3(unsigned slot, uint32_t cr3);
/* On the AP, paging off: its own GDT copy (from the GDT it runs on, the boot
 * processor's), TR = its main TSS, IDT = the 32-bit one (#DF a task gate). */
void ap_tables_load32(unsigned slot);
/* The pseudo-descriptors long_switch loads for slot: its GDT with its own
 * 64-bit TSS (IST1: its double-fault stack) and the 64-bit IDT. */
void ap_tables_long(unsigned slot, struct desc_ptr64 *gdtr, struct desc_ptr64 *idtr);

#endif
