/* Each application processor's own memory and tables.
 *
 * Why a GDT per processor: LTR marks the TSS descriptor it loads busy (SDM
 * Vol. 3A §7.2.2, §7.4), and a second LTR of a busy descriptor raises #GP;
 * a task switch marks the new task's descriptor busy too (§7.3). So no two
 * processors may share a TSS descriptor. Each AP copies the GDT it arrives
 * with (the boot processor's, loaded by the trampoline) and puts its own
 * TSSs into the copy under the same selectors: SEL_TSS_MAIN and SEL_TSS_DF
 * in 32-bit mode, SEL_TSS64 in long mode. The code and data descriptors are
 * the same bytes, so the loaded segment registers stay valid (§3.4.3).
 *
 * The IDTs are shared by all APs: a gate names a selector (the task gate's
 * SEL_TSS_DF) or an IST index (IST1), and each processor resolves it
 * through its own GDT and TR, so one table serves them all. Their stubs
 * report into the AP's mailbox (ap_fault.c), never the boot processor's
 * guard.
 *
 * The double fault: in 32-bit mode through a task gate to the AP's own
 * double-fault task and stack (§6.15 Interrupt 8, §7.3), in long mode on
 * IST1 of its own 64-bit TSS (§6.14.5). Either way the handler has a stack
 * when the AP's own one is unusable. */
#include "ap.h"
#include "ap_tables.h"
#include "lib/kstring.h"
#include "bare/traps/idt.h"

#define AP_STACK 8192
#define AP_DF_STACK 4096
#define PAGE 4096

struct ap_memory {
    uint8_t guard[PAGE];            /* below the stack: unmapped for the overflow test */
    uint8_t stack[AP_STACK];
    uint8_t df_stack[AP_DF_STACK];
    uint64_t gdt[GDT_ENTRIES];
    struct tss32 main_tss, df_tss;
    struct tss64 tss64;
} __attribute__((aligned(PAGE)));

struct ap_box ap_boxes[SMP_MAX_CPUS];
static struct ap_memory mem[SMP_MAX_CPUS];

static struct gate32 idt32[32];
static struct gate64 idt64[32] __attribute__((aligned(16)));
static uint32_t df_task_eip;

void ap_tables_prepare(const struct ap_handlers *h)
{
    df_task_eip = h->df_task_eip;
    for (unsigned v = 0; v < 32; v++) /* #DF: a task gate to the AP's own double-fault task */
        idt_gate32(&idt32[v], v == 8 ? 0 : v == 2 ? h->nmi32 : h->stubs32[v], v == 8 ? SEL_TSS_DF : SEL_CODE,
                   v == 8 ? GATE32_TASK : GATE32_INTERRUPT);
    uint32_t stubs64[32];
    kmemcpy(stubs64, h->stubs64, sizeof stubs64);
    stubs64[2] = h->nmi64;
    long_gates_fill(idt64, stubs64, 32);
}

uint32_t ap_stack_top(unsigned slot)
{
    return (uint32_t)(uintptr_t)(mem[slot].stack + AP_STACK);
}

uint32_t ap_guard_page(unsigned slot)
{
    return (uint32_t)(uintptr_t)mem[slot].guard;
}

int ap_slot_of(uintptr_t sp)
{
    for (unsigned i = 0; i < SMP_MAX_CPUS; i++)
        if (sp >= (uintptr_t)mem[i].guard && sp < (uintptr_t)(&mem[i] + 1))
            return (int)i;
    return -1;
}

const struct tss32 *ap_main_tss(unsigned slot)
{
    return &mem[slot].main_tss;
}

void ap_df_task_cr3(unsigned slot, uint32_t cr3)
{
    mem[slot].df_tss.cr3 = cr3;
}

static uint32_t read_cr3(void)
{
    uint32_t v;
    __asm__ volatile("mov %%cr3, %0" : "=r"(v));
    return v;
}

/* The double-fault task starts at df_task_eip on the AP's own stack, with
 * interrupts off and the flat selectors (§7.2.1: the TSS's fields). */
static void fill_tasks(struct ap_memory *m)
{
    kmemset(&m->main_tss, 0, sizeof m->main_tss);
    kmemset(&m->df_tss, 0, sizeof m->df_tss);
    m->main_tss.iomap = sizeof m->main_tss; /* no I/O permission bitmap */
    m->df_tss.eip = df_task_eip;
    m->df_tss.esp = (uint32_t)(uintptr_t)(m->df_stack + AP_DF_STACK);
    m->df_tss.eflags = 0x2;
    m->df_tss.cs = SEL_CODE;
    m->df_tss.ss = m->df_tss.ds = m->df_tss.es = m->df_tss.fs = m->df_tss.gs = SEL_DATA;
    m->df_tss.cr3 = read_cr3();
    m->df_tss.iomap = sizeof m->df_tss;
    m->gdt[SEL_TSS_MAIN >> 3] = gdt_descriptor((uint32_t)(uintptr_t)&m->main_tss, sizeof m->main_tss - 1, 0x89, 0);
    m->gdt[SEL_TSS_DF >> 3] = gdt_descriptor((uint32_t)(uintptr_t)&m->df_tss, sizeof m->df_tss - 1, 0x89, 0);
}

void ap_tables_load32(unsigned slot)
{
    struct ap_memory *m = &mem[slot];
    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) gdtr, idtr = { sizeof idt32 - 1, (uint32_t)(uintptr_t)idt32 };
    __asm__ volatile("sgdt %0" : "=m"(gdtr));
    kmemcpy(m->gdt, (const void *)(uintptr_t)gdtr.base, GDT_ENTRIES * 8);
    fill_tasks(m);
    gdtr.limit = sizeof m->gdt - 1;
    gdtr.base = (uint32_t)(uintptr_t)m->gdt;
    __asm__ volatile("lgdt %0\n ltr %w1\n lidt %2"
                     : : "m"(gdtr), "r"(SEL_TSS_MAIN), "m"(idtr) : "memory");
}

void ap_tables_long(unsigned slot, struct desc_ptr64 *gdtr, struct desc_ptr64 *idtr)
{
    struct ap_memory *m = &mem[slot];
    m->gdt[SEL_TSS64 >> 3] = long_tss64_fill(&m->tss64, (uint32_t)(uintptr_t)(m->df_stack + AP_DF_STACK));
    m->gdt[(SEL_TSS64 >> 3) + 1] = 0;
    m->gdt[SEL_CODE64 >> 3] = CODE64_DESCRIPTOR;
    gdtr->limit = sizeof m->gdt - 1;
    gdtr->base = (uint32_t)(uintptr_t)m->gdt;
    idtr->limit = sizeof idt64 - 1;
    idtr->base = (uint32_t)(uintptr_t)idt64;
}
