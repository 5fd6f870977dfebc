/* The blob's one entry, at its first byte (blob.ld puts .text.blob_entry
 * first): kernel/bare/efi/efi_entry.S and efi_call.S call it in 64-bit mode
 * with the firmware's own paging, descriptor tables and stack restored. */
#include "blob.h"

HIDDEN void efi64_dispatch(uint64_t op, struct efi_state *s) __attribute__((section(".text.blob_entry")));

void efi64_dispatch(uint64_t op, struct efi_state *s)
{
    if (op == EFI_OP_PRELUDE) {
        efi_prelude(s);
        return;
    }
    /* The end of the run: the firmware's interrupt controllers and IF back
     * for the file's writes (its timer drives the USB and disk drivers),
     * then the kernel's again, interrupts off. */
    efi_irq_save(&s->kernel_irq);
    efi_irq_load(&s->firmware_irq);
    if (s->firmware.rflags & (1u << 9))
        __asm__ volatile("sti");
    efi_finish(s);
    __asm__ volatile("cli");
    efi_irq_load(&s->kernel_irq);
}

void *memset(void *d, int c, unsigned long n)
{
    uint8_t *p = d;
    while (n--)
        *p++ = (uint8_t)c;
    return d;
}

void *memcpy(void *d, const void *s, unsigned long n)
{
    uint8_t *p = d;
    const uint8_t *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}
