/* smpfault= with smpfaultkind=overflow: the AP pushes until its stack is
 * gone, with the page below the stack not present. The push into it is a
 * #PF; delivering it pushes into the same page, a second #PF: a double fault
 * (SDM Vol. 3A §6.15 Interrupt 8, Table 6-5), which must reach the AP's own
 * double-fault stack (ap_tables.c) instead of resetting the machine.
 *
 * In long mode the page is unmapped in the one identity map all processors
 * share (long_pages_unmap flushes this AP's TLB; nothing else touches the
 * page). On the 32-bit path paging is off, so this AP alone turns it on for
 * the test, as the boot processor's overflow self-test does
 * (traps/double_fault.c): 32-bit paging (§4.3) with 4 MiB pages for all of
 * the 4 GiB (CR4.PSE, CPUID.1:EDX[3]) but the 4 MiB around the guard page,
 * which get a page table with that one entry not present. The double-fault
 * task switch loads CR3 from its TSS (§7.3), so that gets the same map. A
 * segment limit (an expand-down SS) would need no paging, but QEMU's TCG
 * does not check data segment limits, so it could not be tested there. */
#include "ap_overflow.h"
#include "ap_tables.h"
#include "cpu/cpu_native.h"
#include "bare/io.h"
#include "bare/long/long_pages.h"

#define PTE_P  0x1u
#define PTE_W  0x2u
#define PDE_PS 0x80u            /* a 4 MiB page (§4.3, Table 4-4) */
#define CR4_PSE (1u << 4)
#define CPUID_1_EDX_PSE (1u << 3)

static uint32_t page_dir[1024] __attribute__((aligned(4096)));
static uint32_t page_table[1024] __attribute__((aligned(4096)));

static void __attribute__((noreturn)) push_forever(void)
{
    for (;;)
        __asm__ volatile("pushl %%eax" : : : "memory");
}

static bool map_32(uint32_t guard)
{
    if (!(cpu_cpuid_native(1, 0).edx & CPUID_1_EDX_PSE))
        return false;
    for (uint32_t i = 0; i < 1024; i++)
        page_dir[i] = (i << 22) | PDE_PS | PTE_P | PTE_W;
    uint32_t base = guard & ~0x3fffffu;
    for (uint32_t i = 0; i < 1024; i++)
        page_table[i] = base + (i << 12) == guard ? 0 : (base + (i << 12)) | PTE_P | PTE_W;
    page_dir[guard >> 22] = (uint32_t)(uintptr_t)page_table | PTE_P | PTE_W;
    return true;
}

void ap_overflow(unsigned slot, bool long_mode)
{
    uint32_t guard = ap_guard_page(slot);
    if (long_mode) {
        if (long_pages_unmap(guard))
            push_forever();
        return;
    }
    if (!map_32(guard))
        return;
    uint32_t cr4 = 0;
    __asm__ volatile("mov %%cr4, %0" : "=r"(cr4)); /* CR4 exists: the CPU has PSE */
    ap_df_task_cr3(slot, (uint32_t)(uintptr_t)page_dir);
    write_cr4(cr4 | CR4_PSE);
    __asm__ volatile("mov %0, %%cr3\n"
                     "mov %%cr0, %%eax\n orl $0x80000000, %%eax\n mov %%eax, %%cr0\n"
                     "jmp 1f\n1:" /* CR0.PG set (§4.1.1, §9.9.1) */
                     : : "r"(page_dir) : "eax", "memory");
    push_forever();
}
