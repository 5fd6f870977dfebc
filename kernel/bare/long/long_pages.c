/* The identity map for long mode: 4-level paging (SDM Vol. 3A §4.5, Tables
 * 4-15 to 4-20; AMD APM Vol. 2 §5.3). One PML4 entry covers 512 GiB, which
 * is all this map ever needs.
 *
 * Below 2 MiB the map uses 4 KiB pages: that range mixes memory types (the
 * legacy video hole at 0xA0000 is uncached or write-combining in the MTRRs)
 * and a large page spanning several MTRR types is mapped in an
 * implementation-specific way (SDM Vol. 3A §11.11.9 "Large Page Size
 * Considerations"). The rest of the first GiB uses 2 MiB pages, everything
 * above it 1 GiB pages where CPUID.80000001H:EDX[26] (Page1GB) says the CPU
 * has them, 2 MiB pages otherwise. The tables carry no PAT/PCD/PWT bits
 * (memory type from PAT entry 0, write-back, combined with the MTRRs, which
 * keep MMIO such as the local APIC and the framebuffer uncached: §11.5.2.2),
 * and no NX bit (EFER.NXE stays clear). */
#include "long_pages.h"
#include "long_mode.h"

#define PTE_P  (1ull << 0)
#define PTE_W  (1ull << 1)
#define PTE_PS (1ull << 7)   /* a 2 MiB page in a PD entry, 1 GiB in a PDPT entry */
#define ADDR_MASK 0x000ffffffffff000ull

/* 2 MiB-page directories: one per GiB mapped that way. 64 cover 64 GiB
 * without 1 GiB pages (256 KiB of tables). */
#define PD_POOL 64

static uint64_t pml4[512] __attribute__((aligned(4096)));
static uint64_t pdpt[512] __attribute__((aligned(4096)));
static uint64_t pd_pool[PD_POOL][512] __attribute__((aligned(4096)));
static uint64_t pt_low[512] __attribute__((aligned(4096)));    /* the first 2 MiB */
/* 2 MiB pages split later into 4 KiB ones (the unmapped pages of the
 * self-test and of an AP's overflow test, smp/ap_overflow.c). */
#define SPLITS 4
static uint64_t pt_split[SPLITS][512] __attribute__((aligned(4096)));
static unsigned splits_used;

uint64_t long_pages_small_tables(uint64_t base, uint64_t len)
{
    if (!len)
        return 0;
    uint64_t first = base >> 21, last = (base + len - 1) >> 21;
    return (last - first + 1) * 4096;
}

static uint32_t addr32(const void *p)
{
    return (uint32_t)(uintptr_t)p;
}

/* The range's 2 MiB pages replaced by page tables at plan->tables_at. */
static void map_small(const struct long_map_plan *plan)
{
    uint64_t *table = (uint64_t *)(uintptr_t)plan->tables_at;
    for (uint64_t chunk = plan->small_base >> 21; chunk <= (plan->small_base + plan->small_len - 1) >> 21;
         chunk++, table += 512) {
        for (unsigned i = 0; i < 512; i++)
            table[i] = (chunk << 21) + ((uint64_t)i << 12) + (PTE_P | PTE_W);
        uint64_t *pd = (uint64_t *)(uintptr_t)(pdpt[chunk >> 9] & ADDR_MASK);
        pd[chunk & 511] = addr32(table) | PTE_P | PTE_W;
    }
}

uint32_t long_pages_build(const struct long_map_plan *plan, uint64_t *mapped)
{
    unsigned used = 0;
    uint64_t gib;
    for (gib = 0; gib < plan->top >> 30 && gib < 512; gib++) {
        if (plan->gb_pages && gib >= 1) {
            pdpt[gib] = (gib << 30) | PTE_P | PTE_W | PTE_PS;
            continue;
        }
        if (used == PD_POOL)
            break;
        uint64_t *pd = pd_pool[used++];
        for (unsigned i = 0; i < 512; i++)
            pd[i] = (gib << 30) + ((uint64_t)i << 21) + (PTE_P | PTE_W | PTE_PS);
        pdpt[gib] = addr32(pd) | PTE_P | PTE_W;
    }
    *mapped = gib << 30;
    for (unsigned i = 0; i < 512; i++)
        pt_low[i] = ((uint64_t)i << 12) | PTE_P | PTE_W;
    pd_pool[0][0] = addr32(pt_low) | PTE_P | PTE_W;
    if (plan->small_len)
        map_small(plan);
    pml4[0] = addr32(pdpt) | PTE_P | PTE_W;
    return addr32(pml4);
}

bool long_pages_unmap(uint32_t addr)
{
    uint64_t pdpte = pdpt[addr >> 30];
    if (!(pdpte & PTE_P) || (pdpte & PTE_PS))
        return false;
    uint64_t *pd = (uint64_t *)(uintptr_t)(pdpte & ADDR_MASK);
    uint64_t *pde = &pd[(addr >> 21) & 511];
    if (*pde & PTE_PS) {
        if (splits_used == SPLITS)
            return false;
        uint64_t *pt = pt_split[splits_used++];
        uint64_t base = *pde & ADDR_MASK & ~0x1fffffull;
        for (unsigned i = 0; i < 512; i++)
            pt[i] = base + ((uint64_t)i << 12) + (PTE_P | PTE_W);
        *pde = addr32(pt) | PTE_P | PTE_W;
    }
    uint64_t *pt = (uint64_t *)(uintptr_t)(*pde & ADDR_MASK);
    pt[(addr >> 12) & 511] = 0;
    /* MOV to CR3 flushes the non-global TLB entries (SDM Vol. 3A §4.10.4.1). */
    __asm__ volatile("mov %%cr3, %%eax\n mov %%eax, %%cr3" : : : "eax", "memory");
    return true;
}
