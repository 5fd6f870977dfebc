/* The 64-bit blob's own helpers (kernel/bare/efi/fw64/). */
#ifndef CK_EFI_BLOB_H
#define CK_EFI_BLOB_H
#include "bare/efi/efi_state.h"
#include "uefi.h"

#define HIDDEN __attribute__((visibility("hidden")))

HIDDEN void efi_prelude(struct efi_state *s);
HIDDEN void efi_finish(struct efi_state *s);
HIDDEN void efi_irq_save(struct efi_irq *irq);
HIDDEN void efi_irq_load(const struct efi_irq *irq);
HIDDEN void efi_say(struct efi_state *s, const char *what, efi_status status);
HIDDEN void *memset(void *d, int c, unsigned long n);
HIDDEN void *memcpy(void *d, const void *s, unsigned long n);

#endif
