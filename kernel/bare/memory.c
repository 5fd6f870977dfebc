/* Memory for the mem/ benchmarks, from the multiboot2 memory map: nothing
 * allocates above the kernel image, so the largest usable range is free. */
#include <stdint.h>
#include "boot_info.h"
#include "memory.h"
#include "load/loaded.h"
#include "record/log.h"

/* Where long mode's pages=4k put its page tables (0: nowhere): the region ends there. */
static uint64_t tables_at;

void bare_big_memory_reserve_top(uint64_t from)
{
    tables_at = from;
}

void bare_largest_usable(uint64_t ceiling, uint64_t *base, uint64_t *len)
{
    extern char __kernel_end[];
    uint64_t floor = ((uint64_t)(uintptr_t)__kernel_end + 0xfffff) & ~0xfffffull;
    uint64_t best_base = 0, best_len = 0;
    for (unsigned i = 0; i < boot_info.nmmap; i++) {
        const struct platform_mem_range *r = &boot_info.mmap[i];
        if (r->type != MEM_USABLE)
            continue;
        uint64_t lo = r->base < floor ? floor : r->base;
        uint64_t hi = r->base + r->length;
        if (hi > ceiling)
            hi = ceiling;
        if (tables_at && lo < tables_at && hi > tables_at)
            hi = tables_at;
        if (hi > lo && hi - lo > best_len) {
            best_base = lo;
            best_len = hi - lo;
        }
    }
    *base = best_base;
    *len = best_len;
}

void bare_big_memory(uint8_t **base, uint64_t *size)
{
    uint64_t at;
    bare_largest_usable(0x100000000ull, &at, size); /* the 32-bit core's reach */
    *base = (uint8_t *)(uintptr_t)at;
}

/* Loaded benchmark code (kernel/load/loaded.c): paging is off, so any
 * memory executes; a buffer of the kernel's own (.bss: nothing in the
 * image), out of the way of the big memory above it. LOADED_MAX slots of
 * about 9 KiB each and the area of placed copies (LOADED_MEMORY_BYTES). */
static uint8_t code_area[LOADED_MEMORY_BYTES] __attribute__((aligned(64)));

void bare_code_memory(uint8_t **base, size_t *size)
{
    *base = code_area;
    *size = sizeof code_area;
}

unsigned bare_boot_modules(const struct platform_module **list)
{
    if (boot_info.modules_dropped)
        log_note("warn", "module", "%u GRUB module(s) ignored: more than %u, or one ending before it starts",
                 boot_info.modules_dropped, BOOT_MODULES_MAX);
    *list = boot_info.modules;
    return boot_info.nmodules;
}

