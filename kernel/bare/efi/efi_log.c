/* The 32-bit side of the UEFI log file: the buffer the prelude allocated
 * fills with every byte the console writes; at the end of the run the
 * firmware's state is put back for one call that writes it (efi_call.S).
 * docs/uefi-log.md has the design and the UEFI sections it relies on. */
#include <stdint.h>
#include "bare/boot_info.h"
#include "bare/long/long_idt.h"
#include "bare/traps/gdt.h"
#include "efi_log.h"
#include "efi_state.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

void efi_firmware_call(uint32_t op); /* efi_call.S */

static int finished;

/* Byte for byte what serial_write sends: "\r\n" for each '\n'. */
static void put(char c)
{
    if (efi_state.buf_len == efi_state.buf_size) {
        efi_state.truncated = 1;
        return;
    }
    ((char *)(uintptr_t)efi_state.buf)[efi_state.buf_len++] = c;
}

void efi_log_append(const char *text, size_t len)
{
    if (!efi_state.entered || !efi_state.buf || finished)
        return;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n')
            put('\r');
        put(text[i]);
    }
}

/* The file's name: the run id of the begin record at the buffer's start
 * ("run":"0x0123456789abcdef"), else "cyclekit.log". */
static void file_name(char *out, size_t size)
{
    const char *log = (const char *)(uintptr_t)efi_state.buf, *key = "\"run\":\"0x";
    size_t keylen = kstrlen(key);
    for (uint64_t at = 0; log && at + keylen + 16 < efi_state.buf_len && at < 4096; at++) {
        if (kstrncmp(log + at, key, keylen))
            continue;
        ksnprintf(out, size, "0x%.16s.log", log + at + keylen);
        return;
    }
    kstrlcpy(out, "cyclekit.log", size);
}

/* Only a file that will be written changes the console line (and so the
 * summary page): the BIOS and ISO boots keep theirs as they were, and say
 * at the end why no file came (efi_log_finish). */
void efi_log_where(char *prefix, size_t size)
{
    prefix[0] = '\0';
    if (efi_state.entered && efi_state.ready) {
        file_name(efi_state.name, sizeof efi_state.name);
        ksnprintf(prefix, size, "file \\cyclekit\\logs\\%s on the boot volume and ", efi_state.name);
    }
}

int efi_log_finish(char *said, size_t size)
{
    if (finished)
        return EFI_LOG_NONE;
    finished = 1;
    if (!boot_info.efi) {
        ksnprintf(said, size, "log: the serial port only (a BIOS boot writes no log file)");
        return EFI_LOG_BIOS;
    }
    if (!efi_state.entered)
        kstrlcpy(efi_state.why, "UEFI boot services were not kept (IA-32 firmware?)", sizeof efi_state.why);
    else if (efi_state.ready && efi_state.firmware.cr3 >> 32 && !(efi_state.kernel.cr0 & 0x80000000u))
        kstrlcpy(efi_state.why, "the firmware's page tables lie above 4 GiB", sizeof efi_state.why);
    else if (efi_state.ready) {
        if (!efi_state.name[0])
            file_name(efi_state.name, sizeof efi_state.name);
        gdt_set_raw(SEL_CODE64, CODE64_DESCRIPTOR); /* (long mode's own, if it ran, is the same) */
        efi_firmware_call(EFI_OP_FINISH);
    }
    if (!efi_state.written) {
        ksnprintf(said, size, "\nlog file: not written: %s\n", efi_state.why);
        return EFI_LOG_FAILED;
    }
    ksnprintf(said, size, "log file: \\cyclekit\\logs\\%s written (%u bytes%s)", efi_state.name,
              (unsigned)efi_state.buf_len, efi_state.truncated ? ", TRUNCATED: the buffer was full" : "");
    return EFI_LOG_WRITTEN;
}
