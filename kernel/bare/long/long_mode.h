/* Long mode on bare metal (IA-32e): the 32-bit core keeps running in
 * compatibility mode and calls 64-bit functions through a 64-bit code
 * segment (docs/architecture.md, "Decisions and why"). */
#ifndef CK_BARE_LONG_MODE_H
#define CK_BARE_LONG_MODE_H
#include <stdbool.h>
#include <stdint.h>

#define PAGE_4K (1ull << 12)
#define PAGE_2M (1ull << 21)
#define PAGE_1G (1ull << 30)

/* What kmain decided and did, for the platform record. */
struct long_mode {
    bool on;                /* IA-32e mode active (EFER.LMA) */
    unsigned mode;          /* 64 or 32 */
    const char *reason;     /* why this mode */
    const char *note;       /* an option that could not be honoured (NULL: none) */
    uint64_t region_page;   /* page size mapping the benchmark region (largest usable range) */
    uint64_t mapped_top;    /* identity-mapped from 0 to here */
    bool gb_pages;          /* 1 GiB pages above the first GiB */
    uint64_t tables_at;     /* pages=4k: the 4 KiB tables, at the mem/ region's top (0: none) */
};
extern struct long_mode long_mode;

/* Decides the mode from CPUID and the options mode= and pages=, and when it
 * is 64 builds the identity map, the 64-bit IDT and TSS, and switches.
 * After gdt_init/idt_init/double_fault_init and options_parse. */
void long_mode_enter(void);

/* struct platform's call64: runs the 64-bit fn(arg) (SysV: RDI = arg,
 * result in RAX) and returns RAX's low half; long_call64_u64 is the same
 * code returning all of RAX (EDX:EAX). */
uintptr_t long_call64(uintptr_t fn, uintptr_t arg);
uint64_t long_call64_u64(uintptr_t fn, uintptr_t arg);

/* The largest usable range of RAM above the kernel image, anywhere in the
 * identity map (above 4 GiB too: only 64-bit code may touch that part),
 * and the page size that maps it. False in 32-bit mode. */
bool long_largest_region(uint64_t *base, uint64_t *size, uint64_t *page);

/* struct platform's page_size: the map's page size for the mem/ region in
 * long mode; 0 and why on the 32-bit path (paging off). */
uint64_t long_page_size(const void *addr, uint64_t len, const char **why);

#endif
