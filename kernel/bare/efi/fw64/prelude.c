/* Before the run, while the firmware's boot services are ours: find the
 * volume GRUB was loaded from, make \cyclekit\logs on it, set the log
 * buffer aside with the firmware's allocator, and take the memory map the
 * kernel must stay inside. A failure is kept in s->why for the kernel to
 * say; the run goes on either way. */
#include "blob.h"

#define MB2_TAG_EFI64 12        /* multiboot2 §3.6 "EFI 64-bit system table pointer" */
#define MB2_TAG_EFI64_IH 20     /* multiboot2 §3.6 "EFI 64-bit image handle pointer" */
#define LOG_BUFFER_BYTES (8ull << 20)
#define BELOW_4G 0xffffffffull

static const struct efi_guid loaded_image_guid =
    { 0x5b1b31a1, 0x9562, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
static const struct efi_guid file_system_guid =
    { 0x964e5b22, 0x6459, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
static const struct efi_guid file_system_info_guid =
    { 0x09576e93, 0x6d3f, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };

static void read_mbi(struct efi_state *s)
{
    const uint8_t *mbi = (const uint8_t *)s->mbi;
    uint32_t total = *(const uint32_t *)mbi;
    for (uint32_t at = 8; at + 8 <= total;) {
        uint32_t type = *(const uint32_t *)(mbi + at), size = *(const uint32_t *)(mbi + at + 4);
        if (type == 0 || size < 8)
            break;
        if (type == MB2_TAG_EFI64 && size >= 16)
            s->system_table = *(const uint64_t *)(mbi + at + 8);
        if (type == MB2_TAG_EFI64_IH && size >= 16)
            s->image_handle = *(const uint64_t *)(mbi + at + 8);
        at += (size + 7) & ~7u;
    }
}

/* The log's buffer: EfiLoaderData below 4 GiB (the 32-bit kernel's reach),
 * so the memory map shows it taken (§7.2 AllocatePages). */
static int allocate_buffer(struct efi_state *s, struct efi_boot_services *bs)
{
    for (uint64_t bytes = LOG_BUFFER_BYTES; bytes >= (1ull << 20); bytes /= 2) {
        uint64_t at = BELOW_4G;
        efi_status st = bs->allocate_pages(EFI_ALLOCATE_MAX_ADDRESS, EFI_LOADER_DATA, bytes / 4096, &at);
        if (!(st & EFI_ERROR_BIT)) {
            s->buf = at;
            s->buf_size = bytes;
            return 1;
        }
        if (bytes == (1ull << 20))
            efi_say(s, "no memory below 4 GiB for the log buffer (AllocatePages)", st);
    }
    return 0;
}

static int open_dir(struct efi_state *s, struct efi_file *in, const char16 *name, struct efi_file **out,
                    const char *what)
{
    efi_status st = in->open(in, out, name, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
                             EFI_FILE_DIRECTORY);
    if (st & EFI_ERROR_BIT)
        efi_say(s, what, st);
    return !(st & EFI_ERROR_BIT);
}

static void volume_info(struct efi_state *s, struct efi_file *root)
{
    struct efi_file_system_info info;
    uint64_t size = sizeof info;
    memset(&info, 0, sizeof info);
    if (root->get_info(root, &file_system_info_guid, &size, &info) & EFI_ERROR_BIT)
        return;
    s->read_only = info.read_only;
    s->free_space = info.free_space;
    s->volume_size = info.volume_size;
}

/* \cyclekit\logs on the loader's device (§9.1 DeviceHandle, §13.4 OpenVolume, §13.5 Open). */
static void open_logs(struct efi_state *s, struct efi_boot_services *bs)
{
    struct efi_loaded_image *image;
    struct efi_simple_file_system *fs;
    struct efi_file *root, *top, *logs;
    efi_status st = bs->handle_protocol((efi_handle)s->image_handle, &loaded_image_guid, (void **)&image);
    if (st & EFI_ERROR_BIT) {
        efi_say(s, "the loader's image has no Loaded Image protocol", st);
        return;
    }
    st = bs->handle_protocol(image->device_handle, &file_system_guid, (void **)&fs);
    if (st & EFI_ERROR_BIT) {
        efi_say(s, "the boot device has no file system the firmware can write (Simple File System)", st);
        return;
    }
    st = fs->open_volume(fs, &root);
    if (st & EFI_ERROR_BIT) {
        efi_say(s, "the boot volume did not open", st);
        return;
    }
    volume_info(s, root);
    if (s->read_only) {
        efi_say(s, "the boot volume is read-only", 0);
    } else if (open_dir(s, root, u"cyclekit", &top, "\\cyclekit could not be made on the boot volume")) {
        if (open_dir(s, top, u"logs", &logs, "\\cyclekit\\logs could not be made on the boot volume")) {
            s->logs_dir = (uint64_t)logs;
            s->ready = 1;
        }
        top->close(top);
    }
    root->close(root);
}

/* One range of the map: joined to the last one when it continues it with
 * the same type (the firmware lists many small neighbours); when the map is
 * full, a usable range takes the place of the smallest reserved one. */
static void keep_range(struct efi_state *s, uint64_t base, uint64_t length, uint32_t type)
{
    struct efi_range *last = s->nmap ? &s->map[s->nmap - 1] : 0;
    if (last && last->type == type && last->base + last->length == base) {
        last->length += length;
        return;
    }
    unsigned at = s->nmap;
    if (at == EFI_MAP_MAX) {
        s->nmap_dropped++;
        at = EFI_MAP_MAX;
        for (unsigned i = 0; type == 1 && i < EFI_MAP_MAX; i++)
            if (s->map[i].type != 1 && (at == EFI_MAP_MAX || s->map[i].length < s->map[at].length))
                at = i;
        if (at == EFI_MAP_MAX)
            return;
    } else {
        s->nmap++;
    }
    s->map[at].base = base;
    s->map[at].length = length;
    s->map[at].type = type;
}

/* A loader range without the log buffer in it (the firmware may have
 * merged the buffer's descriptor with GRUB's neighbouring ones); the
 * buffer itself is reserved. */
static void keep_loader_range(struct efi_state *s, uint64_t base, uint64_t length)
{
    uint64_t end = base + length, buf_end = s->buf + s->buf_size;
    if (!s->buf || buf_end <= base || s->buf >= end) {
        keep_range(s, base, length, 1);
        return;
    }
    if (s->buf > base)
        keep_range(s, base, s->buf - base, 1);
    keep_range(s, s->buf, s->buf_size, 2);
    if (end > buf_end)
        keep_range(s, buf_end, end - buf_end, 1);
}

/* multiboot2's type for a UEFI memory type (UEFI §7.2, the memory type table of AllocatePages). Usable
 * for the kernel: the firmware's free memory and GRUB's (EfiLoaderCode/
 * Data): GRUB is never returned to, and the kernel image, the multiboot2
 * information and the modules in it are kept clear of as on a BIOS boot.
 * The firmware's own memory (boot and runtime services, ACPI, reserved)
 * is never usable. */
static uint32_t multiboot_type(uint32_t efi_type)
{
    switch (efi_type) {
    case EFI_CONVENTIONAL_MEMORY: case EFI_LOADER_CODE: case EFI_LOADER_DATA: return 1;
    case EFI_ACPI_RECLAIM_MEMORY: return 3;
    case EFI_ACPI_MEMORY_NVS: return 4;
    case EFI_UNUSABLE_MEMORY: return 5;
    default: return 2;
    }
}

/* §7.2 GetMemoryMap, into the (still empty) log buffer: the last call, so
 * every allocation above is in it. */
static void memory_map(struct efi_state *s, struct efi_boot_services *bs)
{
    uint64_t size = s->buf_size, key, dsize;
    uint32_t version;
    uint8_t *map = (uint8_t *)s->buf;
    efi_status st = bs->get_memory_map(&size, (struct efi_memory_descriptor *)map, &key, &dsize, &version);
    if (st & EFI_ERROR_BIT) {
        efi_say(s, "GetMemoryMap failed", st);
        return;
    }
    for (uint64_t at = 0; at + dsize <= size; at += dsize) {
        const struct efi_memory_descriptor *d = (const struct efi_memory_descriptor *)(map + at);
        if (!d->pages)
            continue;
        if (d->type == EFI_LOADER_CODE || d->type == EFI_LOADER_DATA)
            keep_loader_range(s, d->physical_start, d->pages * 4096);
        else
            keep_range(s, d->physical_start, d->pages * 4096, multiboot_type(d->type));
    }
    memset(map, 0, size);
}

void efi_prelude(struct efi_state *s)
{
    read_mbi(s);
    if (!s->system_table || !s->image_handle) {
        efi_say(s, "GRUB passed no EFI system table or image handle", 0);
        return;
    }
    struct efi_boot_services *bs = ((struct efi_system_table *)s->system_table)->boot_services;
    bs->set_watchdog_timer(0, 0, 0, 0); /* §7.5: no reset five minutes into a long run */
    efi_irq_save(&s->firmware_irq);
    if (!allocate_buffer(s, bs))
        return;
    open_logs(s, bs);
    memory_map(s, bs);
}
