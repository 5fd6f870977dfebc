/* The double fault, handled by a task of its own (SDM Vol. 3A §6.15
 * Interrupt 8; task management: §7). A #DF means the CPU could not deliver
 * an exception, very often because the stack it pushes onto is unusable;
 * handled through an ordinary gate it would push onto that same stack and
 * end in a triple fault (a reset, nothing in the log). Through a task gate
 * the CPU saves the interrupted state in the current TSS and switches to the
 * double-fault task's TSS, stack and all (§7.3), so the handler can report
 * what happened, close the log and stop the machine with the kernel-fault
 * status.
 *
 * The self-test option "overflow" provokes exactly that: it turns paging on
 * (an identity map with the page under the benchmark stack left not present,
 * SDM Vol. 3A §4.3) and runs a body that pushes without end. The push into
 * the guard page is a #PF; delivering it pushes into the same page, a second
 * #PF, which is a double fault (§6.15 Interrupt 8, Table 6-5). */
#include <stdint.h>
#include "harness/measure.h"
#include "options/settings.h"
#include "platform/fault.h"
#include "platform/guard.h"
#include "platform/status.h"
#include "bare/io.h"
#include "bare/machine.h"
#include "double_fault.h"
#include "gdt.h"
#include "idt.h"
#include "safe.h"
#include "tss.h"
#include "bare/long/long_mode.h"
#include "bare/long/long_pages.h"

/* The kernel's own task: the CPU saves the interrupted state here on the
 * switch to the double-fault task (§7.3 step 8). */
static struct tss32 main_tss __attribute__((aligned(128)));
static struct tss32 df_tss __attribute__((aligned(128)));
static uint8_t df_stack[16384] __attribute__((aligned(16)));

/* Identity map of the first 32 MiB in 4 KiB pages (§4.3: 32-bit paging,
 * one page directory, 8 page tables). */
#define MAPPED_TABLES 8
static uint32_t page_dir[1024] __attribute__((aligned(4096)));
static uint32_t page_tables[MAPPED_TABLES][1024] __attribute__((aligned(4096)));

void double_fault_entry(void);
void double_fault_report(void);
/* The task starts here on the double-fault stack, the error code (always 0,
 * §6.15 Interrupt 8) pushed on it (§6.12.2). */
__asm__(".text\n"
        ".globl double_fault_entry\n"
        "double_fault_entry:\n"
        "  call double_fault_report\n"
        "1: cli\n hlt\n jmp 1b\n");

static uint32_t read_cr3(void)
{
    uint32_t v;
    __asm__ volatile("mov %%cr3, %0" : "=r"(v));
    return v;
}

void double_fault_init(void)
{
    main_tss.iomap = sizeof main_tss; /* no I/O permission bitmap (§7.2.1) */
    gdt_set_tss(SEL_TSS_MAIN, &main_tss, sizeof main_tss);
    __asm__ volatile("ltr %w0" : : "r"(SEL_TSS_MAIN));
    df_tss.eip = (uint32_t)(uintptr_t)double_fault_entry;
    df_tss.esp = (uint32_t)(uintptr_t)(df_stack + sizeof df_stack);
    df_tss.eflags = 0x2; /* IF=0: interrupts stay off in the handler */
    df_tss.cs = SEL_CODE;
    df_tss.ss = df_tss.ds = df_tss.es = df_tss.fs = df_tss.gs = SEL_DATA;
    df_tss.cr3 = read_cr3();
    df_tss.iomap = sizeof df_tss;
    gdt_set_tss(SEL_TSS_DF, &df_tss, sizeof df_tss);
    idt_set_task_gate(VEC_DF, SEL_TSS_DF);
}

/* In the double-fault task: the interrupted task's registers are in
 * main_tss. Report through the run's abort path (fault record, error note,
 * end record) and stop with the kernel-fault status. */
void double_fault_report(void)
{
    struct fault_info info = { 0 };
    info.vector = VEC_DF;
    info.error_code = 0;
    info.eip = main_tss.eip;
    info.cs = main_tss.cs;
    info.eflags = main_tss.eflags;
    info.cr0 = read_cr0();
    info.cr2 = read_cr2(); /* after a #PF: the address that missed */
    uint32_t cr4 = 0;
    info.cr4 = read_cr4_safe(&cr4) ? 0 : cr4; /* no CR4 before the Pentium */
    info.eax = main_tss.eax;
    info.ebx = main_tss.ebx;
    info.ecx = main_tss.ecx;
    info.edx = main_tss.edx;
    info.esi = main_tss.esi;
    info.edi = main_tss.edi;
    info.ebp = main_tss.ebp;
    info.esp = main_tss.esp;
    /* Paging off again before anything is written: the map covers 32 MiB
     * only, a framebuffer console may lie above. The map is the identity, so
     * this code goes on at the same addresses (SDM Vol. 3A §9.9.2). */
    write_cr0(info.cr0 & ~0x80000000u);
    guard_abort("double fault (handled by its own task and stack)", &info);
    machine_exit(STATUS_KERNEL_FAULT);
}

/* For the "overflow" self-test case: paging on, the page under the
 * benchmark stack not present. Returns false (the case is not run) without
 * the option. */
bool double_fault_arm_overflow(void)
{
    if (!settings.overflow)
        return false;
    uint32_t guard = (uint32_t)measure_stack_guard_page();
    if (long_mode.on) /* paging is on already: unmap the page in long mode's map */
        return long_pages_unmap(guard);
    for (uint32_t t = 0; t < MAPPED_TABLES; t++) {
        for (uint32_t i = 0; i < 1024; i++) {
            uint32_t addr = (t << 22) | (i << 12);
            page_tables[t][i] = addr == guard ? 0 : addr | 0x3; /* present, writable */
        }
        page_dir[t] = (uint32_t)(uintptr_t)page_tables[t] | 0x3;
    }
    df_tss.cr3 = (uint32_t)(uintptr_t)page_dir; /* loaded on the task switch (§7.3) */
    __asm__ volatile("mov %0, %%cr3\n"
                     "mov %%cr0, %%eax\n orl $0x80000000, %%eax\n mov %%eax, %%cr0\n"
                     "jmp 1f\n1:" /* CR0.PG set (§4.1.1, §9.9.1) */
                     : : "r"(page_dir) : "eax", "memory");
    return true;
}
