/* Memory for the mem/ benchmarks, from the multiboot2 memory map: nothing
 * allocates above the kernel image, so the largest usable range is free. */
#include <stdint.h>
#include "boot_info.h"
#include "lib/option.h"
#include "memory.h"

/* The hosted runner's option, so the same names exist on both platforms. */
OPTION_ELSEWHERE(hostmem, "hostmem", "hosted runner only (bare metal takes memory from the multiboot2 map)");

void bare_big_memory(uint8_t **base, uint64_t *size)
{
    /* The largest usable range above the kernel image, below 4 GiB. */
    extern char __kernel_end[];
    uint64_t floor = ((uint64_t)(uintptr_t)__kernel_end + 0xfffff) & ~0xfffffull;
    uint64_t best_base = 0, best_len = 0;
    for (unsigned i = 0; i < boot_info.nmmap; i++) {
        const struct platform_mem_range *r = &boot_info.mmap[i];
        if (r->type != MEM_USABLE)
            continue;
        uint64_t lo = r->base < floor ? floor : r->base;
        uint64_t hi = r->base + r->length;
        if (hi > 0x100000000ull)
            hi = 0x100000000ull;
        if (hi > lo && hi - lo > best_len) {
            best_base = lo;
            best_len = hi - lo;
        }
    }
    *base = (uint8_t *)(uintptr_t)best_base;
    *size = best_len;
}

/* The 32-bit path never sets CR0.PG (cpu_setup.c): linear addresses are
 * physical ones, there is no page size and no TLB miss in the curve. */
uint64_t bare_page_size(const void *addr, uint64_t len, const char **why)
{
    (void)addr;
    (void)len;
    *why = "paging is off: the 32-bit core addresses physical memory directly, without pages";
    return 0;
}
