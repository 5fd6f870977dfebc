/* The mode decision and the switch, in kmain before the run begins (so the
 * platform record can say which mode the run is in). Long mode where CPUID
 * says the CPU has it (0x80000001.EDX[29] LM; AMD APM Vol. 3, CPUID Fn8000_0001)
 * unless mode=32; everything else stays the 32-bit kernel it always was.
 * docs/architecture.md ("Decisions and why") says why the 32-bit core keeps
 * running in compatibility mode instead of a 64-bit harness. */
#include "long_mode.h"
#include "long_idt.h"
#include "long_pages.h"
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "lib/fmt.h"
#include "bare/options.h"
#include "options/settings.h"
#include "bare/boot_info.h"
#include "bare/memory.h"

#define CPUID_EXT_LM     (1u << 29)  /* 0x80000001 EDX: long mode */
#define CPUID_EXT_PAGE1G (1u << 26)  /* 0x80000001 EDX: 1 GiB pages */
#define EFLAGS_ID        (1u << 21)

struct long_mode long_mode = { .mode = 32, .reason = "not decided" };

void long_switch(uint32_t cr3, const struct desc_ptr64 *gdtr, const struct desc_ptr64 *idtr);

/* CPUID 0x80000001.EDX, or 0 where CPUID or the leaf is missing (a 486
 * without EFLAGS.ID; a Pentium's extended range). */
static uint32_t ext_features(void)
{
    if (!cpu_eflags_toggles(EFLAGS_ID))
        return 0;
    /* As cpu_probe.c: a maximum outside (0x80000000, CPU_EXT_RANGE_LIMIT] is
     * no extended range but the highest basic leaf's data (SDM Vol. 2A, CPUID). */
    uint32_t max = cpuid_raw(0x80000000u, 0).eax;
    if (max <= 0x80000000u || max > CPU_EXT_RANGE_LIMIT)
        return 0;
    return cpuid_raw(0x80000001u, 0).edx;
}

/* The end of the highest usable range, at least 4 GiB (the 32-bit core
 * reaches MMIO anywhere below 4 GiB: local APIC, framebuffer), in GiB. */
static uint64_t map_top(void)
{
    uint64_t top = 1ull << 32;
    for (unsigned i = 0; i < boot_info.nmmap; i++) {
        const struct platform_mem_range *r = &boot_info.mmap[i];
        if (r->type == MEM_USABLE && r->base + r->length > top)
            top = r->base + r->length;
    }
    return (top + PAGE_1G - 1) & ~(PAGE_1G - 1);
}

/* The map's plan from pages= and the CPU; the page size of the mem/ region. */
static uint64_t plan_map(struct long_map_plan *plan, bool has_1g)
{
    uint8_t *base;
    uint64_t len;
    bare_big_memory(&base, &len);
    plan->top = map_top();
    plan->gb_pages = has_1g && (settings.pages == PAGES_AUTO || settings.pages == PAGES_1G);
    long_mode.gb_pages = plan->gb_pages;
    if (settings.pages == PAGES_1G && !has_1g)
        long_mode.note = "pages=1g: the CPU has no 1 GiB pages (CPUID 0x80000001.EDX[26]); 2 MiB pages used";
    if (settings.pages == PAGES_4K && len > PAGE_2M) {
        /* The tables go at the region's top, which bare_big_memory then leaves out. */
        uint64_t need = long_pages_small_tables((uintptr_t)base, len);
        plan->tables_at = ((uintptr_t)base + len - need) & ~(PAGE_4K - 1);
        plan->small_base = (uintptr_t)base;
        plan->small_len = plan->tables_at - plan->small_base;
        long_mode.tables_at = plan->tables_at;
        bare_big_memory_reserve_top(plan->tables_at);
        return PAGE_4K;
    }
    return plan->gb_pages && (uintptr_t)base >= PAGE_1G ? PAGE_1G : PAGE_2M;
}

static const char *why_32(uint32_t ext)
{
    if (!(ext & CPUID_EXT_LM)) {
        if (settings.mode == MODE_64)
            long_mode.note = "mode=64: the CPU has no long mode (CPUID 0x80000001.EDX[29] LM); 32-bit mode used";
        return "the CPU has no long mode (CPUID 0x80000001.EDX[29] LM clear or no such leaf)";
    }
    if (settings.mode == MODE_32)
        return "mode=32 was given (the CPU has long mode)";
    return NULL;
}

void long_mode_enter(void)
{
    uint32_t ext = ext_features();
    long_mode.reason = why_32(ext);
    if (long_mode.reason)
        return;
    static struct desc_ptr64 gdtr, idtr;
    struct long_map_plan plan = { 0 };
    long_mode.region_page = plan_map(&plan, (ext & CPUID_EXT_PAGE1G) != 0);
    long_idt_init(&gdtr, &idtr);
    uint32_t cr3 = long_pages_build(&plan, &long_mode.mapped_top);
    if (long_mode.mapped_top < plan.top && !long_mode.note) {
        static char note[160];
        ksnprintf(note, sizeof note, "the identity map stops at %u GiB of %u (its static tables: "
                  "512 GiB in 1 GiB pages, 64 GiB in 2 MiB pages): RAM above is not used",
                  (unsigned)(long_mode.mapped_top >> 30), (unsigned)(plan.top >> 30));
        long_mode.note = note;
    }
    long_switch(cr3, &gdtr, &idtr);
    long_mode.on = true;
    long_mode.mode = 64;
    long_mode.reason = settings.mode == MODE_64 ? "mode=64 was given; the CPU has long mode (CPUID 0x80000001.EDX[29])"
                                           : "the CPU has long mode (CPUID 0x80000001.EDX[29])";
}

bool long_largest_region(uint64_t *base, uint64_t *size, uint64_t *page)
{
    if (!long_mode.on)
        return false;
    uint64_t best_base, best_len;
    bare_largest_usable(long_mode.mapped_top, &best_base, &best_len);
    *base = best_base;
    *size = best_len;
    if (long_mode.tables_at && best_base < long_mode.tables_at)
        *page = PAGE_4K;
    else
        *page = long_mode.gb_pages && best_base >= PAGE_1G ? PAGE_1G : PAGE_2M;
    return best_len != 0;
}

/* struct platform's page_size on bare metal. The 32-bit path never sets
 * CR0.PG (cpu_setup.c): linear addresses are physical ones, there is no
 * page size and no TLB miss in the curve. In long mode the identity map
 * (long_pages.c) maps the mem/ region with the page size the platform
 * record states as `pages`. */
uint64_t long_page_size(const void *addr, uint64_t len, const char **why)
{
    (void)addr;
    (void)len;
    if (long_mode.on)
        return long_mode.region_page;
    *why = "paging is off: the 32-bit core addresses physical memory directly, without pages";
    return 0;
}
