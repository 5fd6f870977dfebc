#ifndef CK_BARE_MEMORY_H
#define CK_BARE_MEMORY_H
#include <stddef.h>
#include <stdint.h>
#include "platform/platform.h"

/* The largest usable range above the kernel image and below ceiling,
 * ending where page tables were reserved (bare_big_memory_reserve_top). */
void bare_largest_usable(uint64_t ceiling, uint64_t *base, uint64_t *len);
/* That range below 4 GiB: the mem/ benchmarks' large memory. */
void bare_big_memory(uint8_t **base, uint64_t *size);
/* From here up the range holds page tables (long mode, pages=4k): left out. */
void bare_big_memory_reserve_top(uint64_t from);

/* Executable memory for loaded benchmark code. */
void bare_code_memory(uint8_t **base, size_t *size);
/* The benchmark files GRUB loaded (module2 lines). */
unsigned bare_boot_modules(const struct platform_module **list);

#endif
