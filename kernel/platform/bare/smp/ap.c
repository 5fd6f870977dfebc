/* An application processor's life: entered from ap_entry.S with its own
 * stack, it loads its own IDT (ap_entry.S's stubs: a fault is reported in
 * its mailbox with its APIC ID, and it is parked), checks in, and waits in
 * its mailbox with interrupts off (SDM Vol. 3A §8.4: MP initialization). */
#include "ap.h"
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "platform/bare/io.h"
#include "platform/bare/traps/gdt.h"
#include "platform/bare/traps/safe.h"

#define AP_STACK 8192

_Static_assert(SEL_CODE == 0x08 && SEL_DATA == 0x10, "ap_entry.S and trampoline use 0x08/0x10");

struct ap_box ap_boxes[SMP_MAX_CPUS];
static uint8_t ap_stacks[SMP_MAX_CPUS][AP_STACK] __attribute__((aligned(16)));
extern volatile uint32_t ap_boot_stack;                 /* ap_entry.S reads these */
extern void (*volatile ap_entry_main)(void);
extern void (*volatile ap_entry_fault)(const uint32_t *frame);
static volatile uint32_t boot_slot;
static uint32_t fault_apic;
/* The boot processor's CR0, CR4 and XCR0 after its setup (cpu_setup.c):
 * each AP takes the same, so a benchmark runs in the same state anywhere. */
static uint32_t bsp_cr0, bsp_cr4;
static uint64_t bsp_xcr0;
#define CR4_OSXSAVE (1u << 18)
/* What an AP does not take: the APs run the 32-bit path with paging off
 * (ap_entry.S), also when the boot processor is in long mode, where its
 * CR0.PG and CR4.PAE/PGE belong to the long-mode map the AP has no CR3 or
 * EFER.LME for (setting PG there would page through garbage and triple-fault
 * the machine; SDM Vol. 3A §9.9). */
#define CR0_PG (1u << 31)
#define CR4_PAGING ((1u << 5) | (1u << 7) | (1u << 4)) /* PAE, PGE, PSE */

struct gate {
    uint16_t offset_lo, selector;
    uint8_t zero, flags;
    uint16_t offset_hi;
} __attribute__((packed));

static struct gate ap_idt[32];
extern const uint32_t ap_stubs[32];

static void ap_main(void) __attribute__((noreturn));
static void ap_fault(const uint32_t *frame) __attribute__((noreturn));

/* XGETBV/XSETBV exist only where CR4.OSXSAVE could be set (SDM Vol. 2C):
 * called only then, and checked apart from the Pentium core. */
__attribute__((section(".text.needs"), noinline)) static uint64_t xcr0_read(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

__attribute__((section(".text.needs"), noinline)) static void xcr0_write(uint64_t v)
{
    __asm__ volatile("xsetbv" : : "a"((uint32_t)v), "d"((uint32_t)(v >> 32)), "c"(0));
}

static void take_bsp_state(void)
{
    write_cr0(bsp_cr0);
    if (bsp_cr4)
        write_cr4(bsp_cr4);
    if (bsp_cr4 & CR4_OSXSAVE)
        xcr0_write(bsp_xcr0);
    if (cpu->has_fpu)
        __asm__ volatile("clts; fninit");
}

void ap_prepare(uint32_t fault_apic_id)
{
    fault_apic = fault_apic_id;
    bsp_cr0 = read_cr0() & ~CR0_PG;
    if (read_cr4_safe(&bsp_cr4) != 0) /* a CPU without CR4: leave it alone */
        bsp_cr4 = 0;
    bsp_cr4 &= ~CR4_PAGING;
    if (bsp_cr4 & CR4_OSXSAVE)
        bsp_xcr0 = xcr0_read();
    ap_entry_main = ap_main;
    ap_entry_fault = ap_fault;
    for (int v = 0; v < 32; v++) {
        ap_idt[v].offset_lo = ap_stubs[v] & 0xffff;
        ap_idt[v].offset_hi = ap_stubs[v] >> 16;
        ap_idt[v].selector = SEL_CODE;
        ap_idt[v].zero = 0;
        ap_idt[v].flags = 0x8e; /* present, ring 0, 32-bit interrupt gate */
    }
}

void ap_select(unsigned slot)
{
    boot_slot = slot;
    ap_boxes[slot].state = AP_OFF;
    ap_boot_stack = (uint32_t)(uintptr_t)(ap_stacks[slot] + AP_STACK);
}

/* Its own APIC ID: the x2APIC ID of leaf 0xB where that leaf exists, else
 * the initial APIC ID of leaf 1 (SDM Vol. 3A §10.4.6, §10.12.8). */
static void identify(struct ap_box *box)
{
    uint32_t max = cpu_cpuid_native(0, 0).eax;
    box->apic_id = cpu_cpuid_native(1, 0).ebx >> 24;
    if (max >= 0xb && (cpu_cpuid_native(0xb, 0).ebx & 0xffff))
        box->apic_id = cpu_cpuid_native(0xb, 0).edx;
    if (max >= 0x1a && max >= 7 && ((cpu_cpuid_native(7, 0).edx >> 15) & 1))
        box->core_type = cpu_cpuid_native(0x1a, 0).eax >> 24;
}

/* PAUSE (F3 90) is REP NOP on processors before it existed (SDM Vol. 2B,
 * PAUSE), but the Pentium check rejects its mnemonic: it lives with the
 * code that is checked apart. */
__attribute__((section(".text.needs"), noinline, noreturn)) static void idle(struct ap_box *box)
{
    for (;;) {
        while (!box->cmd)
            __asm__ volatile("pause" ::: "memory");
        box->state = AP_BUSY;
        box->result = box->fn(box->arg);
        box->state = AP_READY;
        __asm__ volatile("" ::: "memory");
        box->cmd = 0;
    }
}

static void ap_main(void)
{
    unsigned slot = boot_slot;
    struct ap_box *box = &ap_boxes[slot];
    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) idtr = { sizeof ap_idt - 1, (uint32_t)(uintptr_t)ap_idt };
    __asm__ volatile("lidt %0" : : "m"(idtr));
    take_bsp_state();
    identify(box);
    __asm__ volatile("" ::: "memory");
    if (fault_apic && box->apic_id == fault_apic)
        __asm__ volatile("ud2"); /* smpfault=: the test of this guard, before it checks in */
    box->state = AP_READY; /* the boot processor waits for this */
    idle(box);
}

/* Which processor faulted follows from its stack: each has its own. */
static void ap_fault(const uint32_t *frame)
{
    uintptr_t sp = (uintptr_t)frame;
    for (unsigned i = 0; i < SMP_MAX_CPUS; i++) {
        uintptr_t lo = (uintptr_t)ap_stacks[i], hi = lo + AP_STACK;
        if (sp < lo || sp >= hi)
            continue;
        struct ap_box *box = &ap_boxes[i];
        box->fault_vector = frame[0];
        box->fault_error = frame[1];
        box->fault_eip = frame[2];
        __asm__ volatile("" ::: "memory");
        box->state = AP_FAULTED;
        break;
    }
    for (;;)
        __asm__ volatile("cli; hlt");
}
