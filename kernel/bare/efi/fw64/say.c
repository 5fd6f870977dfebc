/* The firmware's failures in words: what failed and the status's name
 * (UEFI Specification 2.10, Appendix D "Status Codes"). */
#include "blob.h"

/* Characters, not pointers: the blob has no relocations (blob.ld). */
static const char names[][24] = {
    [1] = "EFI_LOAD_ERROR", [2] = "EFI_INVALID_PARAMETER", [3] = "EFI_UNSUPPORTED",
    [4] = "EFI_BAD_BUFFER_SIZE", [5] = "EFI_BUFFER_TOO_SMALL", [6] = "EFI_NOT_READY",
    [7] = "EFI_DEVICE_ERROR", [8] = "EFI_WRITE_PROTECTED", [9] = "EFI_OUT_OF_RESOURCES",
    [10] = "EFI_VOLUME_CORRUPTED", [11] = "EFI_VOLUME_FULL", [12] = "EFI_NO_MEDIA",
    [13] = "EFI_MEDIA_CHANGED", [14] = "EFI_NOT_FOUND", [15] = "EFI_ACCESS_DENIED",
    [18] = "EFI_TIMEOUT", [21] = "EFI_ABORTED",
};

static unsigned append(char *out, unsigned at, const char *text)
{
    while (*text && at < EFI_WHY_MAX - 1)
        out[at++] = *text++;
    out[at] = '\0';
    return at;
}

void efi_say(struct efi_state *s, const char *what, efi_status status)
{
    if (s->why[0]) /* the first failure is the one that matters */
        return;
    unsigned at = append(s->why, 0, what);
    if (!status)
        return;
    uint64_t code = status & ~EFI_ERROR_BIT;
    if (code < sizeof names / sizeof names[0] && names[code][0]) {
        at = append(s->why, at, " (");
        at = append(s->why, at, names[code]);
        append(s->why, at, ")");
        return;
    }
    char hex[32] = " (status 0x";
    unsigned n = 11;
    for (int shift = 60; shift >= 0; shift -= 4)
        hex[n++] = "0123456789abcdef"[(status >> shift) & 15];
    hex[n++] = ')';
    hex[n] = '\0';
    append(s->why, at, hex);
}
