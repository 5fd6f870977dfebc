/* The one efi_state (efi_state.h), in .data, not .bss: boot/entry.S's UEFI
 * entry fills it before _start clears .bss. */
#include "efi_state.h"

struct efi_state efi_state __attribute__((section(".data.efi_state")));
