/* The few UEFI interfaces the log file needs, declared from the UEFI
 * Specification 2.10 (https://uefi.org/specifications): §4.3 System Table,
 * §4.4 Boot Services table, §7.2 Memory Allocation Services, §9.1 Loaded
 * Image protocol, §13.4 Simple File System protocol, §13.5 File protocol,
 * Appendix D status codes. Calls use the Microsoft x64 convention (§2.3.4.2),
 * hence ms_abi. Built only into the 64-bit blob. */
#ifndef CK_UEFI_H
#define CK_UEFI_H
#include <stdint.h>

#define EFIAPI __attribute__((ms_abi))
typedef uint64_t efi_status;
typedef void *efi_handle;
typedef uint16_t char16;

#define EFI_ERROR_BIT (1ull << 63)
#define EFI_ERR(n) (EFI_ERROR_BIT | (n))
#define EFI_BUFFER_TOO_SMALL EFI_ERR(5)
#define EFI_NOT_FOUND EFI_ERR(14)

struct efi_guid { uint32_t a; uint16_t b, c; uint8_t d[8]; };

struct efi_table_header { uint64_t signature; uint32_t revision, size, crc32, reserved; };

struct efi_memory_descriptor {
    uint32_t type;
    uint64_t physical_start, virtual_start, pages, attribute;
};
#define EFI_CONVENTIONAL_MEMORY 7
#define EFI_UNUSABLE_MEMORY 8
#define EFI_ACPI_RECLAIM_MEMORY 9
#define EFI_ACPI_MEMORY_NVS 10
#define EFI_LOADER_CODE 1
#define EFI_LOADER_DATA 2
#define EFI_ALLOCATE_MAX_ADDRESS 1

/* §4.4: the order of the entries is the specification's. */
struct efi_boot_services {
    struct efi_table_header hdr;
    void *raise_tpl, *restore_tpl;
    efi_status (EFIAPI *allocate_pages)(uint32_t type, uint32_t memory_type, uint64_t pages, uint64_t *memory);
    efi_status (EFIAPI *free_pages)(uint64_t memory, uint64_t pages);
    efi_status (EFIAPI *get_memory_map)(uint64_t *size, struct efi_memory_descriptor *map, uint64_t *key,
                                        uint64_t *descriptor_size, uint32_t *descriptor_version);
    void *allocate_pool, *free_pool;
    void *create_event, *set_timer, *wait_for_event, *signal_event, *close_event, *check_event;
    void *install_protocol_interface, *reinstall_protocol_interface, *uninstall_protocol_interface;
    efi_status (EFIAPI *handle_protocol)(efi_handle handle, const struct efi_guid *protocol, void **interface);
    void *reserved, *register_protocol_notify, *locate_handle, *locate_device_path;
    void *install_configuration_table, *load_image, *start_image, *exit, *unload_image;
    void *exit_boot_services, *get_next_monotonic_count, *stall;
    efi_status (EFIAPI *set_watchdog_timer)(uint64_t timeout, uint64_t code, uint64_t size, char16 *data);
};

struct efi_system_table {
    struct efi_table_header hdr;
    char16 *firmware_vendor;
    uint32_t firmware_revision;
    efi_handle console_in_handle;
    void *con_in;
    efi_handle console_out_handle;
    void *con_out;
    efi_handle standard_error_handle;
    void *std_err;
    void *runtime_services;
    struct efi_boot_services *boot_services;
};

/* §9.1 */
struct efi_loaded_image {
    uint32_t revision;
    efi_handle parent_handle;
    struct efi_system_table *system_table;
    efi_handle device_handle;
};

/* §13.5 */
struct efi_file {
    uint64_t revision;
    efi_status (EFIAPI *open)(struct efi_file *self, struct efi_file **out, const char16 *name,
                              uint64_t mode, uint64_t attributes);
    efi_status (EFIAPI *close)(struct efi_file *self);
    efi_status (EFIAPI *delete_file)(struct efi_file *self);
    efi_status (EFIAPI *read)(struct efi_file *self, uint64_t *size, void *buffer);
    efi_status (EFIAPI *write)(struct efi_file *self, uint64_t *size, const void *buffer);
    void *get_position, *set_position;
    efi_status (EFIAPI *get_info)(struct efi_file *self, const struct efi_guid *type, uint64_t *size, void *buffer);
    void *set_info;
    efi_status (EFIAPI *flush)(struct efi_file *self);
};
#define EFI_FILE_MODE_READ 1ull
#define EFI_FILE_MODE_WRITE 2ull
#define EFI_FILE_MODE_CREATE (1ull << 63)
#define EFI_FILE_DIRECTORY 0x10ull

/* §13.4 */
struct efi_simple_file_system {
    uint64_t revision;
    efi_status (EFIAPI *open_volume)(struct efi_simple_file_system *self, struct efi_file **root);
};

/* §13.5, EFI_FILE_SYSTEM_INFO (GetInfo) */
struct efi_file_system_info {
    uint64_t size;
    uint8_t read_only;
    uint64_t volume_size, free_space;
    uint32_t block_size;
    char16 label[32];
};

#endif
