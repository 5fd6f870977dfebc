/* The identity map for long mode (long_pages.c): 4-level paging, SDM Vol.
 * 3A §4.5. */
#ifndef CK_BARE_LONG_PAGES_H
#define CK_BARE_LONG_PAGES_H
#include <stdbool.h>
#include <stdint.h>

struct long_map_plan {
    uint64_t top;           /* map [0, top): rounded up to 1 GiB */
    bool gb_pages;          /* 1 GiB pages above the first GiB */
    uint64_t small_base;    /* [small_base, small_base+small_len) in 4 KiB pages (len 0: none) */
    uint64_t small_len;
    uint64_t tables_at;     /* where the 4 KiB page tables of that range go (below 4 GiB) */
};

/* Page tables a plan's 4 KiB range needs, in bytes. */
uint64_t long_pages_small_tables(uint64_t base, uint64_t len);
/* Builds the tables (paging still off) and returns the PML4's address for
 * CR3; *mapped is the top actually mapped (may be below plan->top when the
 * static directories run out, 2 MiB pages only). */
uint32_t long_pages_build(const struct long_map_plan *plan, uint64_t *mapped);
/* The 4 KiB page at addr made not present (the overflow self-test's guard
 * page), splitting its 2 MiB page if needed; TLB flushed. False: cannot. */
bool long_pages_unmap(uint32_t addr);

#endif
