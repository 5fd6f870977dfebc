/* The boot processor's local APIC access (kernel/bare/smp/lapic.c)
 * on the host, through a made-up MSR file standing in for rdmsr_safe and
 * wrmsr_safe. QEMU 7.2's TCG has no x2APIC, so the x2APIC path cannot be
 * booted here; what is asserted instead is exactly what it reads and writes
 * (SDM Vol. 3A §10.12: IA32_APIC_BASE bit 10 EXTD selects x2APIC mode, the
 * ID is MSR 802H, the ICR is MSR 830H written once with the 32-bit
 * destination in bits 63:32 and no delivery status). The xAPIC path runs
 * against a page mapped at a 32-bit address standing in for the MMIO page
 * (§10.6.1: destination in ICR bits 63:56, i.e. bits 31:24 of the high
 * word at offset 310H; the low word at 300H sends). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "cpu/cpu.h"
#include "bare/smp/lapic.h"
#include "bare/traps/safe.h"

#define APIC_BASE_MSR 0x1b
#define BSP (1u << 8)
#define EXTD (1u << 10)
#define EN (1u << 11)

static uint64_t apic_base, x2apic_id;
static bool write_faults;
static struct { uint32_t msr; uint64_t value; } writes[8];
static unsigned nwrites, reads_802;

volatile uint32_t fault_last_code;

int rdmsr_safe(uint32_t msr, uint64_t *value)
{
    if (msr == APIC_BASE_MSR) {
        *value = apic_base;
        return 0;
    }
    if (msr == 0x802 && (apic_base & EXTD)) { /* only in x2APIC mode (§10.12.1.2) */
        reads_802++;
        *value = x2apic_id;
        return 0;
    }
    return 13 << 8; /* #GP */
}

int wrmsr_safe(uint32_t msr, uint64_t value)
{
    if (write_faults || !(apic_base & EXTD) || nwrites == 8)
        return 13 << 8;
    writes[nwrites].msr = msr;
    writes[nwrites++].value = value;
    return 0;
}

static int reset(void **state)
{
    (void)state;
    struct cpu_info *c = (struct cpu_info *)cpu; /* the probed CPU: made to have an APIC */
    c->features[cpu_feature_word(FEAT_APIC)] |= 1u << cpu_feature_bit(FEAT_APIC);
    apic_base = 0xfee00000u | BSP | EN;
    x2apic_id = 0;
    write_faults = false;
    nwrites = reads_802 = 0;
    return 0;
}

static void x2apic_mode_is_seen(void **state)
{
    (void)state;
    struct lapic l;
    apic_base |= EXTD;
    assert_null(lapic_open(&l));
    assert_true(l.x2apic);
}

static void x2apic_needs_no_mmio_page_below_4_gib(void **state)
{
    (void)state;
    struct lapic l;
    apic_base = 0x100000000ull | BSP | EN | EXTD;
    assert_null(lapic_open(&l));
    assert_true(l.x2apic);
}

static void x2apic_id_is_msr_802_all_32_bits(void **state)
{
    (void)state;
    struct lapic l;
    apic_base |= EXTD;
    x2apic_id = 0x10203; /* beyond the xAPIC's 8 bits */
    assert_null(lapic_open(&l));
    assert_int_equal(lapic_id(&l), 0x10203);
    assert_int_equal(reads_802, 1);
}

static void x2apic_ipis_are_one_write_to_msr_830(void **state)
{
    (void)state;
    struct lapic l;
    apic_base |= EXTD;
    assert_null(lapic_open(&l));
    assert_true(lapic_send(&l, 0x1ff, ICR_INIT | ICR_LEVEL_ASSERT));
    assert_true(lapic_send(&l, 0x1ff, ICR_STARTUP | ICR_LEVEL_ASSERT | 0x08)); /* page 0x8000 */
    assert_int_equal(nwrites, 2);
    assert_int_equal(writes[0].msr, 0x830);
    assert_int_equal(writes[0].value, 0x000001ff00004500ull);
    assert_int_equal(writes[1].msr, 0x830);
    assert_int_equal(writes[1].value, 0x000001ff00004608ull);
}

static void x2apic_refused_write_is_a_failed_send(void **state)
{
    (void)state;
    struct lapic l;
    apic_base |= EXTD;
    assert_null(lapic_open(&l));
    write_faults = true;
    assert_false(lapic_send(&l, 1, ICR_INIT | ICR_LEVEL_ASSERT));
}

static void x2apic_registers_are_msrs_800_and_offset_over_16(void **state)
{
    (void)state;
    struct lapic l;
    apic_base |= EXTD;
    assert_null(lapic_open(&l));
    assert_true(lapic_write(&l, 0x340, 0x10022)); /* LVT performance counter: MSR 0x834 */
    assert_true(lapic_write(&l, 0xb0, 0));        /* EOI: MSR 0x80B */
    assert_int_equal(nwrites, 2);
    assert_int_equal(writes[0].msr, 0x834);
    assert_int_equal(writes[0].value, 0x10022);
    assert_int_equal(writes[1].msr, 0x80b);
    assert_int_equal(writes[1].value, 0);
    write_faults = true;
    assert_false(lapic_write(&l, 0xb0, 0));
}

static void unusable_apics_say_why(void **state)
{
    (void)state;
    struct lapic l;
    apic_base = 0xfee00000u | BSP; /* EN clear */
    assert_string_equal(lapic_open(&l), "the local APIC is globally disabled (IA32_APIC_BASE[11])");
    apic_base = 0x100000000ull | EN; /* xAPIC page above 4 GiB: no pointer reaches it */
    assert_string_equal(lapic_open(&l), "the local APIC's MMIO page is above 4 GiB");
    struct cpu_info *c = (struct cpu_info *)cpu;
    c->features[cpu_feature_word(FEAT_APIC)] &= ~(1u << cpu_feature_bit(FEAT_APIC));
    assert_string_equal(lapic_open(&l), "no local APIC (CPUID.1:EDX[9] clear)");
}

/* A page at a 32-bit address stands in for the xAPIC's MMIO page. */
#define PAGE_AT 0x3fe00000u

static volatile uint32_t *xapic_page(void)
{
    void *p = mmap((void *)(uintptr_t)PAGE_AT, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != (void *)(uintptr_t)PAGE_AT)
        skip(); /* the address is taken in this process: nothing is asserted */
    memset(p, 0, 4096);
    return p;
}

static void xapic_registers_by_mmio(void **state)
{
    (void)state;
    volatile uint32_t *page = xapic_page();
    struct lapic l;
    apic_base = PAGE_AT | BSP | EN;
    page[0x20 / 4] = 3u << 24;
    assert_null(lapic_open(&l));
    assert_false(l.x2apic);
    assert_int_equal(l.base, PAGE_AT);
    assert_int_equal(lapic_id(&l), 3);
    assert_true(lapic_send(&l, 0x2a, ICR_INIT | ICR_LEVEL_ASSERT));
    assert_int_equal(page[0x310 / 4], 0x2au << 24);
    assert_int_equal(page[0x300 / 4], 0x4500);
    assert_true(lapic_write(&l, 0x340, 0x22));
    assert_int_equal(page[0x340 / 4], 0x22);
    assert_int_equal(nwrites, 0); /* no MSR written in xAPIC mode */
    /* delivery status stuck at "send pending" (bit 12): a bounded wait, then false */
    assert_false(lapic_send(&l, 0x2a, ICR_INIT | ICR_LEVEL_ASSERT | (1u << 12)));
    munmap((void *)page, 4096);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(x2apic_mode_is_seen, reset),
        cmocka_unit_test_setup(x2apic_needs_no_mmio_page_below_4_gib, reset),
        cmocka_unit_test_setup(x2apic_id_is_msr_802_all_32_bits, reset),
        cmocka_unit_test_setup(x2apic_ipis_are_one_write_to_msr_830, reset),
        cmocka_unit_test_setup(x2apic_refused_write_is_a_failed_send, reset),
        cmocka_unit_test_setup(x2apic_registers_are_msrs_800_and_offset_over_16, reset),
        cmocka_unit_test_setup(unusable_apics_say_why, reset),
        cmocka_unit_test_setup(xapic_registers_by_mmio, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
