/* The log file on the UEFI boot volume (docs/uefi-log.md): the console's
 * bytes kept in the firmware-allocated buffer, written at the end of the run. */
#ifndef CK_EFI_LOG_H
#define CK_EFI_LOG_H
#include <stddef.h>

/* How many firmware memory ranges did not fit the prelude's map (0: none). */
unsigned efi_map_dropped(void);
/* The bytes the serial port carries, also into the file's buffer. */
void efi_log_append(const char *text, size_t len);
/* The file the log will go to, for the console's line ("" when none). */
void efi_log_where(char *prefix, size_t size);
/* While boot services live, the kernel's memory map is the firmware's
 * EfiConventionalMemory (nothing else may be overwritten). */
void efi_adopt_memory_map(void);
/* At the end of the run: the file written, or why not, or that a BIOS boot
 * has none (said: a line for the screen, and for the serial port too when
 * it failed). */
enum { EFI_LOG_NONE, EFI_LOG_WRITTEN, EFI_LOG_FAILED, EFI_LOG_BIOS };
int efi_log_finish(char *said, size_t size);

#endif
