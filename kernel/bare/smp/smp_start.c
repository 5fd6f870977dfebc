/* The boot processor starts the others, one at a time: the trampoline
 * copied to a free page below 1 MiB, then INIT, 10 ms, start-up IPI, 200 us,
 * a second start-up IPI if it has not answered (SDM Vol. 3A §8.4.4.1,
 * "Typical BSP Initialization Sequence"), and a bounded, PIT-measured wait
 * for it to check in. One that does not answer is reported and skipped. */
#include "ap.h"
#include "lapic.h"
#include "lib/kstring.h"
#include "bare/boot_info.h"
#include "smp_bare.h"
#include "smp_wait.h"

extern const uint8_t ap_trampoline[], ap_trampoline_end[], ap_trampoline_gdtr[], ap_trampoline_jump[];
extern void ap_entry32(void);

#define PAGE 4096u
#define LOW_LIMIT 0x9f000u  /* below the EBDA and the video memory */

/* The first usable page at or above 0x8000 (else 0x1000) below LOW_LIMIT. */
static uint32_t free_low_page(void)
{
    for (uint32_t want = 0x8000; want >= 0x1000; want = want == 0x8000 ? 0x1000 : 0) {
        for (unsigned i = 0; i < boot_info.nmmap; i++) {
            const struct platform_mem_range *r = &boot_info.mmap[i];
            if (r->type != MEM_USABLE || r->base >= LOW_LIMIT)
                continue;
            uint64_t lo = (r->base + PAGE - 1) & ~(uint64_t)(PAGE - 1);
            if (lo < want)
                lo = want;
            if (lo + PAGE <= r->base + r->length && lo + PAGE <= LOW_LIMIT)
                return (uint32_t)lo;
        }
        if (want == 0x1000)
            break;
    }
    return 0;
}

static void install_trampoline(uint32_t page)
{
    uint8_t *dst = (uint8_t *)(uintptr_t)page;
    uint32_t len = (uint32_t)(ap_trampoline_end - ap_trampoline);
    kmemcpy(dst, ap_trampoline, len);
    struct {
        uint16_t limit;
        uint32_t base;
    } __attribute__((packed)) gdtr;
    __asm__ volatile("sgdt %0" : "=m"(gdtr));
    kmemcpy(dst + (ap_trampoline_gdtr - ap_trampoline), &gdtr, 6);
    uint32_t entry = (uint32_t)(uintptr_t)ap_entry32;
    uint16_t code = 0x08; /* SEL_CODE */
    kmemcpy(dst + (ap_trampoline_jump - ap_trampoline), &entry, 4);
    kmemcpy(dst + (ap_trampoline_jump - ap_trampoline) + 4, &code, 2);
}

static bool answered(void *box)
{
    return ((struct ap_box *)box)->mb.state != MAILBOX_OFF;
}

static void start_one(const struct lapic *l, uint32_t page, unsigned slot, uint32_t answer_ms,
                      struct smp_cpu *c)
{
    struct ap_box *box = &ap_boxes[slot];
    ap_select(slot);
    uint32_t waited = 0;
    lapic_send(l, c->apic_id, ICR_INIT | ICR_LEVEL_ASSERT);
    smp_wait_us(10000, NULL, NULL);
    for (int sipi = 0; sipi < 2 && !answered(box); sipi++) {
        lapic_send(l, c->apic_id, ICR_STARTUP | ICR_LEVEL_ASSERT | (page >> 12));
        waited += smp_wait_us(200, answered, box);
    }
    if (!answered(box))
        waited += smp_wait_us(answer_ms * 1000u, answered, box);
    c->answer_us = waited;
    if (!answered(box)) {
        c->state = SMP_NO_ANSWER;
        return;
    }
    c->reported_apic_id = box->apic_id;
    c->core_type = box->core_type;
    c->state = box->mb.state == MAILBOX_FAULTED ? SMP_FAULTED : SMP_STARTED;
    c->fault_vector = box->fault_vector;
    c->fault_eip = box->fault_eip;
    c->fault_error = box->fault_error;
    c->mode = box->mode;
    c->why_32 = box->why_32;
}

static struct lapic bsp_lapic;

const struct lapic *bare_smp_lapic(void)
{
    return &bsp_lapic;
}

void bare_smp_start(const struct smp_request *req, struct smp_info *out)
{
    static char method[48];
    out->why_not = lapic_open(&bsp_lapic);
    if (out->why_not)
        return;
    out->bsp_apic_id = lapic_id(&bsp_lapic);
    kstrlcpy(method, bsp_lapic.x2apic ? "x2APIC (MSR 0x830)" : "xAPIC MMIO", sizeof method);
    out->method = method;
    out->trampoline = free_low_page();
    if (!out->trampoline) {
        out->why_not = "no free page below 1 MiB in the memory map for the start-up code";
        return;
    }
    install_trampoline(out->trampoline);
    ap_prepare(req->fault_apic_id, req->fault_kind);
    for (unsigned i = 0; i < req->n && out->n < SMP_MAX_CPUS; i++) {
        struct smp_cpu *c = &out->cpus[out->n];
        kmemset(c, 0, sizeof *c);
        c->apic_id = req->apic_ids[i];
        c->state = SMP_BSP;
        if (c->apic_id != out->bsp_apic_id)
            start_one(&bsp_lapic, out->trampoline, out->n, req->answer_ms, c);
        out->n++;
    }
}
