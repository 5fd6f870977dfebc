/* At the end of the run: the log buffer to \cyclekit\logs\<name> on the
 * boot volume (§13.5 Open, Write, Flush, Close), or why not in s->why. A
 * file that could not be written whole is deleted (§13.5 Delete), so a
 * full volume keeps no half log and no lost clusters. */
#include "blob.h"

static unsigned decimal(char *out, uint64_t v)
{
    char tmp[24];
    unsigned n = 0, len = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        out[len++] = tmp[--n];
    out[len] = '\0';
    return len;
}

static void say_no_room(struct efi_state *s)
{
    char text[EFI_WHY_MAX];
    unsigned at = 0;
    const char *a = "no room on the boot volume: ", *b = " bytes free, the log needs ", *c = " bytes";
    while (*a)
        text[at++] = *a++;
    at += decimal(text + at, s->free_space);
    while (*b)
        text[at++] = *b++;
    at += decimal(text + at, s->buf_len);
    while (*c)
        text[at++] = *c++;
    text[at] = '\0';
    efi_say(s, text, 0);
}

static void write_whole(struct efi_state *s, struct efi_file *file)
{
    uint64_t size = s->buf_len;
    efi_status st = file->write(file, &size, (const void *)s->buf);
    if (!(st & EFI_ERROR_BIT) && size != s->buf_len)
        st = EFI_ERR(11); /* a short write: the volume filled up */
    if (!(st & EFI_ERROR_BIT))
        st = file->flush(file);
    if (st & EFI_ERROR_BIT) {
        efi_say(s, "the log file could not be written; removed", st);
        file->delete_file(file);
        return;
    }
    st = file->close(file);
    if (st & EFI_ERROR_BIT) {
        efi_say(s, "the log file did not close", st);
        return;
    }
    s->written = 1;
}

void efi_finish(struct efi_state *s)
{
    struct efi_file *logs = (struct efi_file *)s->logs_dir, *file;
    if (!s->ready || !logs)
        return;
    if (s->free_space && s->free_space < s->buf_len) {
        say_no_room(s);
    } else {
        char16 name[sizeof s->name];
        unsigned i = 0;
        for (; s->name[i] && i < sizeof name / sizeof name[0] - 1; i++)
            name[i] = (char16)(uint8_t)s->name[i];
        name[i] = 0;
        efi_status st = logs->open(logs, &file, name,
                                   EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);
        if (st & EFI_ERROR_BIT)
            efi_say(s, "the log file could not be created", st);
        else
            write_whole(s, file);
    }
    logs->close(logs);
    s->logs_dir = 0;
}
