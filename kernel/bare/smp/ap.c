/* An application processor's life: entered from ap_entry.S with its own
 * stack, it loads its own GDT copy, TR and IDT (ap_tables.c: a fault is
 * reported in its mailbox with its APIC ID and it is parked; a double fault
 * goes to its own task or IST stack), takes the boot processor's state,
 * enters long mode when the boot processor runs in it, checks in, and waits
 * in its mailbox with interrupts off (SDM Vol. 3A §8.4: MP initialization). */
#include "ap.h"
#include "ap_fault.h"
#include "ap_overflow.h"
#include "ap_tables.h"
#include "cpu/cpu.h"
#include "cpu/cpu_native.h"
#include "cpu/topology/apic_id.h"
#include "bare/io.h"
#include "bare/long/long_mode.h"
#include "bare/traps/gdt.h"
#include "bare/traps/safe.h"

_Static_assert(SEL_CODE == 0x08 && SEL_DATA == 0x10, "ap_entry.S and trampoline use 0x08/0x10");

extern volatile uint32_t ap_boot_stack;                 /* ap_entry.S reads these */
extern void (*volatile ap_entry_main)(void);
extern void (*volatile ap_entry_fault)(const uint32_t *frame);
extern const uint32_t ap_stubs[32], ap_stubs64[32];
extern void ap_nmi32(void), ap_nmi64(void), ap_park_halt(void);
static volatile uint32_t boot_slot;
static uint32_t fault_apic;
static unsigned fault_kind;
/* The boot processor's CR0, CR4, XCR0 (and in long mode CR3 and EFER) after
 * its setup (cpu_setup.c, long_mode.c): each AP takes the same, so a
 * benchmark runs in the same state anywhere. */
static uint32_t bsp_cr0, bsp_cr4, bsp_cr3;
static uint64_t bsp_xcr0, bsp_efer;
static bool bsp_long;
#define CR4_OSXSAVE (1u << 18)
#define CR4_PCIDE (1u << 17) /* may be set only in IA-32e mode (SDM Vol. 3A §2.5) */
/* On the 32-bit path paging is off (cpu_setup.c): an AP takes neither
 * CR0.PG nor CR4's paging bits there. In long mode CR0.PG comes last, from
 * long_switch, after CR3 and EFER.LME (SDM Vol. 3A §9.8.5). */
#define CR0_PG (1u << 31)
#define CR4_PAGING ((1u << 5) | (1u << 7) | (1u << 4)) /* PAE, PGE, PSE */
#define MSR_EFER 0xc0000080u
#define EFER_KEEP ((1u << 0) | (1u << 11))  /* SCE, NXE: LME comes from long_switch, LMA from the CPU */
#define CPUID_EXT_LM (1u << 29)

static void ap_main(void) __attribute__((noreturn));
void long_switch(uint32_t cr3, const struct desc_ptr64 *gdtr, const struct desc_ptr64 *idtr);

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

/* RDMSR/WRMSR of EFER, only in long mode (the MSR exists: CPUID said LM).
 * Not the _safe variants: their exception table is the boot processor's
 * fault path, an AP's fault parks it. */
static uint64_t efer_read(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(MSR_EFER));
    return (uint64_t)hi << 32 | lo;
}

static void efer_write(uint64_t v)
{
    __asm__ volatile("wrmsr" : : "a"((uint32_t)v), "d"((uint32_t)(v >> 32)), "c"(MSR_EFER));
}

static void take_bsp_state(void)
{
    write_cr0(bsp_cr0 & ~CR0_PG);
    if (bsp_cr4)
        write_cr4(bsp_cr4 & ~CR4_PCIDE);
    if (bsp_cr4 & CR4_OSXSAVE)
        xcr0_write(bsp_xcr0);
    if (cpu->has_fpu)
        __asm__ volatile("clts; fninit");
}

void ap_prepare(uint32_t fault_apic_id, unsigned kind)
{
    fault_apic = fault_apic_id;
    fault_kind = kind;
    bsp_long = long_mode.on;
    bsp_cr0 = read_cr0();
    if (read_cr4_safe(&bsp_cr4) != 0) /* a CPU without CR4: leave it alone */
        bsp_cr4 = 0;
    if (!bsp_long)
        bsp_cr4 &= ~CR4_PAGING;
    if (bsp_cr4 & CR4_OSXSAVE)
        bsp_xcr0 = xcr0_read();
    if (bsp_long) {
        __asm__ volatile("mov %%cr3, %0" : "=r"(bsp_cr3));
        bsp_efer = efer_read();
    }
    ap_entry_main = ap_main;
    ap_entry_fault = ap_fault;
    struct ap_handlers h = { ap_stubs, ap_stubs64, (uint32_t)(uintptr_t)ap_double_fault_entry,
                             (uint32_t)(uintptr_t)ap_nmi32, (uint32_t)(uintptr_t)ap_nmi64 };
    ap_tables_prepare(&h);
}

void ap_select(unsigned slot)
{
    boot_slot = slot;
    ap_boxes[slot].mb.state = MAILBOX_OFF;
    ap_boot_stack = ap_stack_top(slot);
}

/* Its own APIC ID and core type, by the rule every started processor uses
 * (cpu/topology/apic_id.h). */
static void identify(struct ap_box *box)
{
    uint32_t id;
    unsigned type;
    cpu_identify_self(&id, &type);
    box->apic_id = id;
    box->core_type = type;
}

/* Long mode exactly as the boot processor entered it (long_switch.S): the
 * same CR4 (PAE, PGE, OSXSAVE... already taken), the boot processor's PML4
 * (one identity map for all), EFER's SCE/NXE as it has them, then LME and
 * CR0.PG; in 64-bit mode this AP's own GDT (its 64-bit TSS: IST1), the APs'
 * 64-bit IDT and LTR. The 32-bit core then runs in compatibility mode here
 * too. An AP whose own CPUID lacks LM stays on the 32-bit path, saying why. */
static void enter_long(unsigned slot, struct ap_box *box)
{
    uint32_t top = cpu_cpuid_native(0x80000000u, 0).eax;
    if (top < 0x80000001u || !(cpu_cpuid_native(0x80000001u, 0).edx & CPUID_EXT_LM)) {
        box->why_32 = "its CPUID has no long mode (0x80000001.EDX[29])";
        return;
    }
    static struct desc_ptr64 gdtr[SMP_MAX_CPUS], idtr[SMP_MAX_CPUS];
    ap_tables_long(slot, &gdtr[slot], &idtr[slot]);
    efer_write(efer_read() | (bsp_efer & EFER_KEEP));
    long_switch(bsp_cr3, &gdtr[slot], &idtr[slot]);
    if (bsp_cr4 & CR4_PCIDE)
        write_cr4(bsp_cr4);
    box->mode = 64;
}

/* Idle: halted until a command comes (ap_park.S says why, and how the NMI
 * that the poster sends when it sees `parked` is never lost): parked is
 * stored before the mailbox is read again, the poster stores the command
 * before it reads parked, so one of the two sees the other. */
static void park(struct ap_box *box)
{
    box->parked = 1;
    ap_full_barrier();
    if (!box->mb.cmd)
        ap_park_halt();
    box->parked = 0;
}

static __attribute__((noreturn)) void idle(struct ap_box *box)
{
    for (;;) {
        while (!box->mb.cmd)
            park(box);
        mailbox_call(&box->mb); /* a fault parks it in ap_fault.c, the box marked faulted */
        mailbox_end(&box->mb);
    }
}

static void ap_main(void)
{
    unsigned slot = boot_slot;
    struct ap_box *box = &ap_boxes[slot];
    ap_tables_load32(slot);
    take_bsp_state();
    identify(box);
    box->mode = 32;
    box->why_32 = 0;
    if (bsp_long)
        enter_long(slot, box);
    __asm__ volatile("" ::: "memory");
    if (fault_apic != SMP_NO_FAULT && box->apic_id == fault_apic) {
        /* smpfault=: the test of this guard, before it checks in */
        if (fault_kind == SMP_FAULT_OVERFLOW)
            ap_overflow(slot, box->mode == 64); /* returns where it cannot: UD2 instead */
        __asm__ volatile("ud2");
    }
    box->mb.state = MAILBOX_READY; /* the boot processor waits for this */
    idle(box);
}
