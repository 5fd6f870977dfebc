/* The kernel's GDT (gdt.c): the flat selectors every handler reloads, and
 * the entries the fault handling needs. */
#ifndef CK_BARE_GDT_H
#define CK_BARE_GDT_H
#ifndef __ASSEMBLER__
#include <stdint.h>
#endif

#define SEL_CODE      0x08  /* flat 32-bit code, ring 0 */
#define SEL_DATA      0x10  /* flat data: DS, ES, FS, GS and SS */
#define SEL_TSS_MAIN  0x18  /* the task the kernel runs in (the double fault switches away from it) */
#define SEL_TSS_DF    0x20  /* the double-fault task */
#define SEL_SS_ABSENT 0x28  /* not present: loading it into SS raises #SS (self-test) */
#define SEL_CODE64    0x30  /* 64-bit code (L=1), ring 0: long mode only (kernel/bare/long) */
#define SEL_TSS64     0x38  /* the 64-bit TSS (16 bytes: two entries), long mode only */
#define GDT_ENTRIES   9

#define GDT_STR_(x) #x
#define GDT_STR(x) GDT_STR_(x)

#ifndef __ASSEMBLER__

void gdt_init(void);
/* An 8-byte segment descriptor (SDM Vol. 3A §3.4.5, Figure 3-8): limit
 * 19:0, access byte (P, DPL, S, type), flags (G, D/B, L, AVL). The
 * application processors build their own GDT copies with it (smp/ap_tables.c). */
uint64_t gdt_descriptor(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags);
void gdt_set_tss(unsigned selector, const void *tss, uint32_t size);
/* One raw 8-byte descriptor (long mode's 64-bit code segment and TSS). */
void gdt_set_raw(unsigned selector, uint64_t descriptor);
#endif

#endif
