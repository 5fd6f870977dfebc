/* The kernel's memory map on a UEFI boot that kept boot services, from the
 * prelude's GetMemoryMap (kernel/bare/efi/fw64/prelude.c). Pure: the host
 * unit test (tests/unit/efi/test_efi_map.c) runs it. */
#include "bare/boot_info.h"
#include "efi_log.h"
#include "efi_state.h"

/* The prelude's ranges, sorted by base (the firmware's map need not be)
 * and joined where they touch with one type, are the kernel's map: GRUB
 * passes none when it keeps boot services. Past BOOT_MMAP_MAX entries the
 * highest ones are left out (the 32-bit core's memory is below 4 GiB). */
void efi_adopt_memory_map(void)
{
    if (!efi_state.entered)
        return;
    struct efi_range *in = efi_state.map;
    unsigned n = efi_state.nmap;
    for (unsigned i = 1; i < n; i++) {
        struct efi_range r = in[i];
        unsigned at = i;
        for (; at > 0 && in[at - 1].base > r.base; at--)
            in[at] = in[at - 1];
        in[at] = r;
    }
    unsigned out = 0;
    for (unsigned i = 0; i < n; i++) {
        struct platform_mem_range *last = out ? &boot_info.mmap[out - 1] : NULL;
        if (last && last->type == in[i].type && last->base + last->length == in[i].base) {
            last->length += in[i].length;
        } else if (out < BOOT_MMAP_MAX) {
            struct platform_mem_range r = { in[i].base, in[i].length, in[i].type };
            boot_info.mmap[out++] = r;
        }
    }
    boot_info.nmmap = out;
}

unsigned efi_map_dropped(void)
{
    return efi_state.entered ? efi_state.nmap_dropped : 0;
}
