#ifndef CK_BARE_MEMORY_H
#define CK_BARE_MEMORY_H
#include <stdint.h>

/* The largest usable range above the kernel image, below 4 GiB. */
void bare_big_memory(uint8_t **base, uint64_t *size);

/* The page size of any memory: none while the 32-bit core runs with
 * paging off (struct platform's page_size). */
uint64_t bare_page_size(const void *addr, uint64_t len, const char **why);

#endif
